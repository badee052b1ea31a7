import Foundation
import Segue

/// The screens an effect can be drawn between: the samples, the screens named on the command line, and images
/// dropped on the page. A request names a screen by id (`sample:home`, `arg:from`, `upload:3`), never by a
/// path: an upload is decoded here by Segue's decoder under `maxPixels` and kept in memory.
actor Uploads {
    /// A screen as a job takes it: the name its storyboard uses, the images it needs in memory, and its size
    /// in pixels where known before the job reads it.
    struct Screen: Sendable {
        var name: String
        var images: [String: Pixmap] = [:]
        var size: (width: Int, height: Int)?
    }

    /// One screen the page can pick, for its list.
    struct Entry: Encodable, Sendable {
        var id: String
        var label: String
        var width: Int?
        var height: Int?
    }

    private struct Upload {
        var label: String
        var pixmap: Pixmap
        var digest: String
    }

    let maxPixels: Int
    let maxBytes: Int
    /// Uploads kept at most: a new one past it replaces the oldest.
    static let maxUploads = 16
    /// Bytes the uploads may take together, decoded and while one is decoded: the oldest go to make room
    /// before a new one is decoded, and one larger than this alone is refused from its header.
    let maxMemory: Int
    static let maxUploadMemory = 1 << 30
    /// Bytes a pixel takes held (premultiplied RGBA8); while it is decoded, the library's own estimate by
    /// format (`ImageInput.decodingBytesPerPixel(of:)`: 8 for PNG and JPEG, 20 for HEIC).
    static let heldBytesPerPixel = 4
    private var uploads: [Int: Upload] = [:]
    private var next = 1
    /// The most bytes the uploads held and the one being decoded took together (those held when it was
    /// decoded, and its pixels at `ImageInput.decodingBytesPerPixel(of:)`), over every upload: what `maxMemory` holds, for tests.
    private(set) var peak = 0
    /// Screens named on the command line (`arg:from`, `arg:to`) that are not samples: paths the user gave.
    var given: [String: String] = [:]

    /// The ids the page starts with: the command line's `--from` and `--to`.
    nonisolated let start: (from: String, to: String)

    init(maxPixels: Int, maxBytes: Int, from: String, to: String, maxMemory: Int = Uploads.maxUploadMemory) {
        self.maxPixels = maxPixels
        self.maxBytes = maxBytes
        self.maxMemory = maxMemory
        var given: [String: String] = [:]
        func id(_ spec: String, _ name: String) -> String {
            if spec == "sample:home" || spec == "sample:detail" { return spec }
            given["arg:\(name)"] = spec
            return "arg:\(name)"
        }
        start = (id(from, "from"), id(to, "to"))
        self.given = given
    }

    var entries: [Entry] {
        [Entry(id: "sample:home", label: "sample: home"), Entry(id: "sample:detail", label: "sample: detail")]
            + given.keys.sorted().map { Entry(id: $0, label: ($0 == "arg:from" ? "from" : "to") + " (command line): " + PathName.last(given[$0]!)) }
            + uploads.keys.sorted().map { Entry(id: "upload:\($0)", label: uploads[$0]!.label, width: uploads[$0]!.pixmap.width, height: uploads[$0]!.pixmap.height) }
    }

    private var held: Int { uploads.values.reduce(0) { $0 + $1.pixmap.width * $1.pixmap.height * Self.heldBytesPerPixel } }

    /// Decodes an uploaded image (PNG or JPEG) under the pixel limit and the uploads' memory; its id. The
    /// image's size is read from its header first: the oldest uploads are dropped until it can be decoded
    /// within what is left, and it is decoded with a pixel limit of what is left, so that the uploads and the
    /// decode never take more than `maxMemory` together.
    func add(_ bytes: [UInt8], label: String) throws(SegueError) -> Entry {
        guard bytes.count <= maxBytes else {
            throw SegueError(.resourceLimit(name: "uploadBytes"), "the image is \(bytes.count) bytes, more than the \(maxBytes) an upload may have")
        }
        let perPixel = ImageInput.decodingBytesPerPixel(of: bytes)
        if let (width, height) = Self.dimensions(bytes), width * height <= maxPixels {
            guard width * height * perPixel <= maxMemory else {
                throw SegueError(.resourceLimit(name: "uploadMemory"), "'\(label)' is \(width)x\(height) pixels: decoding it takes about \(width * height * perPixel >> 20) MiB, more than the \(maxMemory >> 20) MiB the studio keeps for uploads (at most \(maxMemory / perPixel) pixels)")
            }
            while let oldest = uploads.keys.min(), uploads.count >= Self.maxUploads || held + width * height * perPixel > maxMemory {
                uploads[oldest] = nil
            }
        }
        // Over the pixel limit, or a header not read here: the decoder refuses it, with what is left its limit.
        let limit = min(maxPixels, max(0, maxMemory - held) / perPixel)
        let pixmap = try ImageInput.decode(bytes, name: label, maxPixels: limit)
        peak = max(peak, held + pixmap.width * pixmap.height * perPixel)
        while let oldest = uploads.keys.min(), uploads.count >= Self.maxUploads { uploads[oldest] = nil }
        let id = next
        next += 1
        uploads[id] = Upload(label: label, pixmap: pixmap, digest: Subjects.digest(bytes))
        return Entry(id: "upload:\(id)", label: label, width: pixmap.width, height: pixmap.height)
    }

    /// An image's width and height from its header (PNG's IHDR, JPEG's start of frame); nil when it is neither
    /// or is cut short (the decoder says what it is).
    static func dimensions(_ bytes: [UInt8]) -> (Int, Int)? {
        func be(_ at: Int, _ count: Int) -> Int? {
            guard at >= 0, at + count <= bytes.count else { return nil }
            return bytes[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
        }
        if bytes.starts(with: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) {
            guard let width = be(16, 4), let height = be(20, 4) else { return nil }
            return (width, height)
        }
        guard bytes.starts(with: [0xff, 0xd8]) else { return nil }
        // JPEG: markers from after SOI; a start of frame (C0-CF but C4, C8, CC) holds precision, height, width.
        var at = 2
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xff else { return nil }
            let marker = bytes[at + 1]
            if marker == 0xff { at += 1; continue }
            if marker == 0xd8 || marker == 0x01 || (0xd0...0xd7).contains(marker) { at += 2; continue }
            guard let length = be(at + 2, 2), length >= 2 else { return nil }
            if (0xc0...0xcf).contains(marker), marker != 0xc4, marker != 0xc8, marker != 0xcc {
                guard let height = be(at + 5, 2), let width = be(at + 7, 2) else { return nil }
                return (width, height)
            }
            at += 2 + length
        }
        return nil
    }

    /// The sample screens as drawn at a size, kept: drawing one took about half of a 375x667 preview's time on
    /// the server (a door frame 28 ms with samples, 15 with the same screens held in memory, 2 busy cores). A
    /// sample held in memory at the job's size is the same pixels the job would draw for `sample:NAME`.
    private var samples: [String: Pixmap] = [:]
    static let maxSamples = 8

    /// The screen `id` names, as a job takes it. A sample is drawn here at `size` (the job's size: the
    /// request's, or that of its first screen), or at the samples' own when `size` is nil and the sample is the
    /// first screen; when the job's size is not known here (`sized` false: a first screen from the command line,
    /// not read yet), the job draws it.
    func screen(_ id: String, size: (width: Int, height: Int)? = nil, sized: Bool = true) throws(SegueError) -> Screen {
        if id == "sample:home" || id == "sample:detail" {
            // Only at the samples' own size, about a megabyte each: a screen of another size is drawn by the job,
            // after it has checked that it fits in memory (a 4K sample drawn here under `ulimit -v` ended the
            // process).
            guard sized, size == nil || (size!.width == 375 && size!.height == 667) else {
                return Screen(name: id, size: size ?? (sized ? (375, 667) : nil))
            }
            let (w, h) = size ?? (375, 667)
            let key = "\(id.dropFirst(7))-\(w)x\(h)"
            if samples[key] == nil {
                if samples.count >= Self.maxSamples { samples.removeAll() }
                samples[key] = id == "sample:home" ? SampleScreens.home(width: Double(w), height: Double(h))
                    : SampleScreens.detail(width: Double(w), height: Double(h))
            }
            return Screen(name: "memory:\(key)", images: [key: samples[key]!], size: (w, h))
        }
        if let path = given[id] {
            // Checked at each job: the file may have been replaced since the studio started (a FIFO would block
            // the renderer's slot, and with it every preview).
            if Subjects.irregular([path]) != nil {
                throw SegueError(.inputUnreadable(path: path), "cannot read the screen '\(path)': not a regular file")
            }
            return Screen(name: path)
        }
        if id.hasPrefix("upload:"), let n = Int(id.dropFirst(7)), let upload = uploads[n] {
            return Screen(name: "memory:u\(n)", images: ["u\(n)": upload.pixmap], size: (upload.pixmap.width, upload.pixmap.height))
        }
        throw SegueError.invalidOption("screen", value: id, "there is no screen '\(id)' (the samples, the command line's, or an upload)")
    }

    /// An upload's file name as the page sent it.
    func label(of id: String) -> String? {
        guard id.hasPrefix("upload:"), let n = Int(id.dropFirst(7)) else { return nil }
        return uploads[n]?.label
    }

    /// What the screens' pixels are, for the cache key: an upload's digest, a command line's file with its stamp, else the id.
    func digest(of ids: [String]) -> String {
        ids.map { id in
            if id.hasPrefix("upload:"), let n = Int(id.dropFirst(7)), let upload = uploads[n] { return upload.digest }
            // A command line's screen is drawn as the file is now.
            if let path = given[id] { return id + " " + Subjects.stamp(path) }
            return id
        }.joined(separator: ",")
    }
}
