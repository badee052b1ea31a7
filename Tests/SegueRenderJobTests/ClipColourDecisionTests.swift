import Foundation
import SegueCore
@testable import SegueRender
import Testing

/// What a clip's probe says about its colour and the filters decided from it (`ClipColour`), without ffmpeg;
/// what the frames then hold is `SegueCLITests/ClipColourTests`.
@Suite struct ClipColourDecisionTests {
    static func probe(_ stream: String) -> ClipReader.Probe? {
        ClipReader.parse(Data(#"{"streams": [{"width": 1920, "height": 1080, "pix_fmt": "yuv420p10le", \#(stream)}]}"#.utf8))
    }

    @Test func tagsAndHDRPeaksAreRead() throws {
        let pq = try #require(Self.probe(#""color_primaries": "bt2020", "color_transfer": "smpte2084", "color_space": "bt2020nc", "color_range": "tv", "side_data_list": [{"side_data_type": "Mastering display metadata", "max_luminance": "10000000/10000"}, {"side_data_type": "Content light level metadata", "max_content": 600}]"#))
        #expect(pq.colour == ClipColour(primaries: "bt2020", transfer: "smpte2084", matrix: "bt2020nc", range: "tv", pixelFormat: "yuv420p10le", height: 1080, peak: 600))
        let mastering = try #require(Self.probe(#""color_transfer": "arib-std-b67", "side_data_list": [{"max_luminance": "10000000/10000"}]"#))
        #expect(mastering.colour.peak == 1000)
        let unknown = try #require(Self.probe(#""color_primaries": "unknown", "color_space": "unknown""#))
        #expect(unknown.colour.primaries == "" && unknown.colour.matrix == "" && unknown.colour.peak == nil)
    }

    @Test func untaggedIsBT709From720LinesAndBT601Below() {
        #expect(ClipColour(height: 720).scaleMatrix == "bt709")
        #expect(ClipColour(height: 719).scaleMatrix == "bt601")
        #expect(ClipColour(range: "", pixelFormat: "yuvj420p").scaleRange == "pc")
        #expect(ClipColour(pixelFormat: "yuv420p").scaleRange == "tv")
        #expect(ClipColour(matrix: "bt2020nc").scaleOptions == "in_color_matrix=bt2020:in_range=tv")
    }

    @Test func onlyWhatDiffersIsConverted() {
        // BT.709 (or untagged) into sRGB: straight to RGBA, as before.
        #expect(ClipColour(primaries: "bt709", transfer: "bt709").conversion(into: .srgb, alpha: false) == "format=rgba")
        #expect(ClipColour().conversion(into: .srgb, alpha: true) == "format=rgba")
        // Into Display P3: zscale converts the primaries, alpha kept where the clip may have it.
        let p3 = ClipColour(primaries: "bt709").conversion(into: .displayP3, alpha: true)
        #expect(p3 == "format=gbrap16le,zscale=tin=iec61966-2-1:pin=bt709:t=iec61966-2-1:p=smpte432,format=gbrap,format=rgba")
        #expect(ClipColour(primaries: "smpte432").conversion(into: .displayP3, alpha: false) == "format=rgba")
    }

    @Test func hdrIsToneMappedWithMobiusAndSaidWithItsPeak() {
        let hlg = ClipColour(primaries: "bt2020", transfer: "arib-std-b67")
        let chain = hlg.conversion(into: .srgb, alpha: false)
        #expect(chain.contains("zscale=tin=arib-std-b67:pin=bt2020:t=linear:npl=100:p=bt709"), "\(chain)")
        #expect(chain.contains("tonemap=tonemap=mobius:desat=0:peak=10,"), "\(chain)")
        #expect(hlg.toneMapNote(path: "a.mov", into: .displayP3)
            == "the clip 'a.mov' is HDR (HLG, BT.2020): tone-mapped into Display P3 with mobius (peak 1000 cd/m², assumed)")
        let pq = ClipColour(primaries: "bt2020", transfer: "smpte2084", peak: 4000)
        #expect(pq.conversion(into: .srgb, alpha: false).contains("peak=40,"))
        #expect(pq.toneMapNote(path: "b.mp4", into: .srgb) == "the clip 'b.mp4' is HDR (PQ, BT.2020): tone-mapped into sRGB with mobius (peak 4000 cd/m²)")
        #expect(ClipColour(transfer: "bt709").toneMapNote(path: "c.mp4", into: .srgb) == nil)
    }
}
