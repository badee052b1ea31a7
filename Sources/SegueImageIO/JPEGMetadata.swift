/// The few facts Segue needs from a JPEG's marker segments: the EXIF orientation, whether an Adobe APP14
/// marker is present (which means CMYK channels are stored inverted), and the ICC profile's APP2 segments.
///
/// Only the segments before the first scan are looked at; anything malformed just ends the scan, leaving
/// the defaults (upright, no Adobe marker).
struct JPEGMetadata {
    /// EXIF orientation, 1...8 (1 = upright).
    var orientation = 1
    var hasAdobeMarker = false
    /// The ICC profile's pieces by their sequence number (1-based), and how many the segments say there are.
    var iccPieces: [Int: ArraySlice<UInt8>] = [:]
    var iccPieceCount = 0

    init(scanning bytes: UnsafeBufferPointer<UInt8>) {
        var i = 2  // after SOI
        var sawExif = false
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { i += 2; continue }  // no length field
            if marker == 0xDA || marker == 0xD9 { break }  // start of scan / end of image
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            let start = i + 4, end = i + 2 + length
            guard length >= 2, end <= bytes.count else { break }
            let segment = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if marker == 0xE1, !sawExif, segment.starts(with: Self.exifHeader) {
                sawExif = true
                orientation = Self.exifOrientation(UnsafeBufferPointer(rebasing: segment[6...])) ?? 1
            } else if marker == 0xEE, segment.starts(with: Self.adobeHeader) {
                hasAdobeMarker = true
            } else if marker == 0xE2, segment.count > 14, segment.starts(with: Self.iccHeader) {
                // "ICC_PROFILE\0", the piece's number, the count of pieces, then the piece.
                let number = Int(segment[12]), count = Int(segment[13])
                if iccPieceCount == 0 { iccPieceCount = count }
                if iccPieces[number] == nil { iccPieces[number] = ArraySlice(segment[14...]) }
            }
            i = end
        }
    }

    private static let exifHeader: [UInt8] = Array("Exif\0\0".utf8)
    private static let adobeHeader: [UInt8] = Array("Adobe".utf8)
    private static let iccHeader: [UInt8] = Array("ICC_PROFILE\0".utf8)

    /// The colour tag: the ICC profile joined from its pieces in order, or untagged when there are none. Pieces
    /// missing, numbered past their count, or more than `ColourProfile.byteLimit` bytes together are refused.
    func colourTag(name: String) throws(ImageIOError) -> ColourTag {
        if iccPieces.isEmpty { return .untagged }
        guard iccPieceCount > 0, iccPieces.count == iccPieceCount, (1...iccPieceCount).allSatisfy({ iccPieces[$0] != nil }) else {
            throw .unusableColourProfile(path: name, reason: "its ICC profile's APP2 segments are incomplete (\(iccPieces.count) of \(iccPieceCount))")
        }
        let total = iccPieces.values.reduce(0) { $0 + $1.count }
        if total > ColourProfile.byteLimit {
            throw .unusableColourProfile(path: name, reason: ColourProfile.Problem.tooLarge(total).words)
        }
        var profile: [UInt8] = []
        profile.reserveCapacity(total)
        for number in 1...iccPieceCount { profile += iccPieces[number]! }
        return .icc(profile)
    }

    /// Orientation tag (0x0112) from IFD0 of a TIFF structure, if present and valid.
    private static func exifOrientation(_ tiff: UnsafeBufferPointer<UInt8>) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true  // "II"
        case (0x4D, 0x4D): little = false  // "MM"
        default: return nil
        }
        func read(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, offset + size <= tiff.count else { return nil }
            var value = 0
            for k in 0..<size { value |= Int(tiff[offset + k]) << (8 * (little ? k : size - 1 - k)) }
            return value
        }
        guard read(2, 2) == 42, let ifd = read(4, 4), let count = read(ifd, 2) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + 12 * entry
            guard let tag = read(at, 2) else { return nil }
            if tag == 0x0112 {
                guard read(at + 2, 2) == 3, let value = read(at + 8, 2), (1...8).contains(value) else { return nil }
                return value
            }
        }
        return nil
    }
}
