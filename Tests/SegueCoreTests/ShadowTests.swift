import Foundation
import Testing
@testable import SegueCore

/// Shadows in the core: an effect file's `shadow`, the shadow's item in the draw list (beneath its layer,
/// moved by its transform, cast by its shape), and the error function both backends evaluate.
@Suite struct ShadowTests {
    let frame = Size(375, 667)

    func effect(_ layers: String) throws(EffectFileError) -> Effect {
        try Effect(json: Data("""
            {"name": "mine", "summary": "s", "source": "test", "duration": 1, "curve": "linear", "layers": \(layers)}
            """.utf8), file: "mine.json")
    }

    func list(_ effect: Effect, at t: Double = 0.5) -> DrawList {
        let scene = Transition(effect).scene(at: t, frame: frame, scale: 2)
        let info = SnapshotInfo(width: 750, height: 1334, isOpaque: true)
        return DrawList(scene: scene, scale: 2, snapshots: [info, info])
    }

    @Test func anEffectFileCastsAShadowBeneathItsLayer() throws {
        let e = try effect("""
            [{"content": "from"},
             {"content": "to", "frame": [40, 60, 200, 300], "transform": [{"translate": ["100 * e", 0]}],
              "shadow": {"color": "#102030", "opacity": "0.5 * e", "radius": 10, "offset": [0, 3]}}]
            """)
        let items = list(e).items
        #expect(items.count == 3)
        guard case let .blurred(rect, radius, sigma)? = items[1].mask else {
            Issue.record("the second item should be the shadow: \(items[1])"); return
        }
        #expect(radius == 0)
        #expect(sigma == 10 * Shadow.sigmaPerRadius)
        #expect(rect.width == 200 && rect.height == 300)
        // Black-ish at opacity 0.25 (0.5 * e), premultiplied.
        if case let .color(r, g, b, a) = items[1].source {
            #expect(abs(a - 0.25) < 1e-12)
            #expect(abs(r - 0x10 / 255.0 * 0.25) < 1e-9 && abs(g - 0x20 / 255.0 * 0.25) < 1e-9 && abs(b - 0x30 / 255.0 * 0.25) < 1e-9)
        } else {
            Issue.record("a shadow is a colour")
        }
        // The shape's top-left corner lands where the layer's does, moved by the offset, in pixels (scale 2):
        // (40 + 50 + 0, 60 + 3) points.
        let corner = items[1].localToPixel.apply(rect.x, rect.y)
        #expect(abs(corner.0 / corner.2 - 180) < 1e-9 && abs(corner.1 / corner.2 - 126) < 1e-9)
        // The layer itself follows, unchanged by its shadow.
        #expect(items[2].mask == nil)
    }

    @Test func aShadowIsCastByTheLayersRoundedMaskOrItsPath() throws {
        let rounded = try effect("""
            [{"content": "to", "frame": [0, 100, 375, 500], "mask": {"rect": [10, -20, 355, 600], "radius": 24},
              "shadow": {"opacity": 0.3, "radius": 6}}]
            """)
        guard case let .blurred(rect, radius, _)? = list(rounded).items.first?.mask else { Issue.record("no shadow"); return }
        // The mask's rectangle within the bounds, its radius kept.
        #expect(abs(rect.width - 355) < 1e-9 && abs(rect.height - 500) < 1e-9 && radius == 24, "\(rect), \(radius)")

        let path = try effect("""
            [{"content": "to", "opacity": 0.9, "shadow": {"opacity": 0.3, "radius": 6, "path": {"circle": {"center": [100, 100], "radius": 30}}}}]
            """)
        guard case let .blurred(circle, r, _)? = list(path).items.first?.mask else { Issue.record("no shadow"); return }
        #expect(abs(circle.width - 60) < 1e-9 && abs(circle.height - 60) < 1e-9 && r == 30, "\(circle), \(r)")
    }

    @Test func aShadowThatCannotShowIsNotDrawn() throws {
        for shadow in [#"{"opacity": 0}"#, ##"{"opacity": 0.5, "color": "#00000000"}"##,
                       #"{"opacity": 0.5, "path": {"rect": [0, 0, 0, 10]}}"#] {
            let e = try effect(#"[{"content": "to", "shadow": \#(shadow)}]"#)
            #expect(list(e).items.count == 1, "\(shadow)")
        }
        // An unblurred shadow is blurred by 0.4 pixel at least, so its edge is antialiased.
        let sharp = try effect(#"[{"content": "to", "frame": [50, 50, 100, 100], "shadow": {"opacity": 1, "radius": 0}}]"#)
        guard case let .blurred(_, _, sigma)? = list(sharp).items.first?.mask else { Issue.record("no shadow"); return }
        #expect(abs(sigma - 0.2) < 1e-9, "0.4 pixel at 2 pixels a point")
    }

    @Test func badShadowsAreReportedAtTheirPaths() throws {
        let cases: [(String, String)] = [
            (#"{"radius": 3}"#, "$.layers[0].shadow"),
            (#"{"opacity": 1, "offset": 3}"#, "$.layers[0].shadow.offset"),
            (#"{"opacity": 1, "blur": 3}"#, "$.layers[0].shadow.blur"),
            (#"{"opacity": 1, "path": {"star": 5}}"#, "$.layers[0].shadow.path"),
            (#""dark""#, "$.layers[0].shadow"),
        ]
        for (shadow, path) in cases {
            do {
                _ = try effect(#"[{"content": "to", "shadow": \#(shadow)}]"#)
                Issue.record("\(shadow) was read")
            } catch {
                #expect(error.problems.map(\.path).contains(path), "\(shadow): \(error)")
            }
        }
    }

    /// `Mask.erf` against Foundation's, and exactly 1 from its limit on.
    @Test func theErrorFunctionIsCloseAndReachesOne() {
        var worst = 0.0
        for k in -400...400 {
            let x = Double(k) / 100
            worst = max(worst, abs(Mask.erf(x) - Foundation.erf(x)))
        }
        #expect(worst < 5e-4)
        #expect(Mask.erf(3) == 1 && Mask.erf(-3.5) == -1 && Mask.erf(0) == 0)
    }
}
