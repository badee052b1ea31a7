import CSegueKernels
import Dispatch
import Foundation
import SegueCore

/// The reference backend: draws a draw list into premultiplied RGBA8 on the CPU.
///
/// Fast by design: each item is prepared once per frame (`LayerShader`, whose row plan is chosen then: a blit, or
/// edges and an interior of one kind), each row's interior is worked out once, only the columns of each row that
/// the item's outline can reach are visited, blits are row copies, interiors are sampled, overlaid and
/// blended four pixels a step (eight in the AVX2 row kernels, where the CPU has AVX2) with no per-pixel
/// allocation or dynamic dispatch, items hidden under opaque ones were already dropped by
/// the core, the stretches of a row that an opaque item overwrites whole are skipped beneath it (`RowCover`),
/// and the frame is cut into bands of rows that are drawn on all cores, each band drawing every item over a
/// strip of rows while the strip is in cache (perspective items a tile at a time).
///
/// Confined, not `Sendable` (see `Renderer`): its loaded snapshots and test switches are plain mutable state,
/// used by one thread at a time; any thread may make it and hand it on. A call spreads its frame's bands over
/// `threads` threads of its own and returns when they are done.
public final class CPUCompositor: Renderer {
    public let name = "cpu"
    /// Threads the bands are spread over.
    public let threads: Int
    /// False: every pixel of each row's span takes the general per-pixel function, with none of the
    /// shortcuts (interior spans, spans clipped to a mask), for tests that check those draw the same picture.
    var takesShortcuts = true
    /// False: perspective items are drawn row by row too, for a test that checks tiles draw the same picture.
    var drawsTiles = true
    /// False: every item draws its whole span, even the stretches opaque items above it overwrite, for a test
    /// that checks skipping them changes no pixel.
    var skipsCovered = true
    private var textures: [Texture] = []

    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.threads = max(1, threads)
    }

    public var details: String {
        "CPU compositor on \(threads) thread\(threads == 1 ? "" : "s")\(PixelMath.hasAVX512 ? ", AVX2 and AVX-512 row kernels" : PixelMath.hasAVX2 ? ", AVX2 row kernels" : "")"
    }

    public func load(snapshots: [Pixmap]) throws {
        textures = snapshots.map(Texture.init)
    }

    public func update(snapshot index: Int, with pixmap: Pixmap) throws {
        guard index < textures.count, textures[index].width == pixmap.width, textures[index].height == pixmap.height else {
            throw SegueError.failed("cannot update snapshot \(index) with a \(pixmap.width)x\(pixmap.height) picture: \(textures.count) snapshot(s) are loaded\(index < textures.count ? " and it is \(textures[index].width)x\(textures[index].height)" : "")")
        }
        textures[index].replace(with: pixmap)
    }

    public func draw(_ list: DrawList, into target: inout Pixmap) throws {
        if target.width != list.width || target.height != list.height {
            target = Pixmap(width: list.width, height: list.height)
        }
        guard list.width > 0, list.height > 0 else { return }
        for item in list.items {
            if case let .snapshot(id, _) = item.source, id.rawValue >= textures.count {
                throw SegueError.failed("the draw list refers to snapshot '\(id)', which was not loaded")
            }
        }
        let columns = ColumnStore()
        let shaders = list.items.map { LayerShader($0, textures: textures, shortcuts: takesShortcuts, columns: columns) }
        let width = list.width, height = list.height
        let background = list.background, clears = list.clearsBackground
        let scratchCount = LayerShader.scratchCount(textures: textures)
        // Skipping what opaque items overwrite pays only where one has an item beneath it (door's halves over
        // the zoomed screen); elsewhere working out the covers row by row is time lost.
        let culls = takesShortcuts && skipsCovered && shaders.dropFirst().contains { $0.storesFinished }
        // Tiles pay for items drawn whole (spin), not for those drawn in the gaps between covers: page-flip and
        // hinge in tiles measured 0.49-0.51 -> 0.56-0.59 ms a frame at 1280x720 and 5.1 -> 5.5-6.1 ms at 4K.
        let tiles = takesShortcuts && drawsTiles && !culls
        // Bands of about 16 rows, at least 4 per thread so uneven work evens out.
        let bandCount = threads == 1 ? 1 : min(height, max(threads * 4, height / 16))
        let band = Band(clears: clears ? background : nil, culls: culls, tiles: tiles, scratchCount: scratchCount)
        target.pixels.withUnsafeMutableBufferPointer { buffer in
            let frame = FrameRows(base: buffer.baseAddress!, width: width)
            let draw: @Sendable (Int) -> Void = { k in
                shaders.withUnsafeBufferPointer { shaders in
                    band.draw(shaders, rows: k * height / bandCount..<(k + 1) * height / bandCount, frame: frame)
                }
            }
            if bandCount == 1 {
                draw(0)
            } else {
                DispatchQueue.concurrentPerform(iterations: bandCount, execute: draw)
            }
        }
        withExtendedLifetime((textures, columns)) {}
    }
}

/// How each band of rows is drawn: in strips of about `stripHeight` rows, each strip cleared to the
/// background and then drawn item by item, so that the strip's rows stay in cache from one item to the next.
private struct Band: Sendable {
    /// The background to clear the rows to first, if any.
    let clears: UInt32?
    /// Whether each item skips the stretches of its rows that opaque items above it overwrite whole.
    let culls: Bool
    /// Perspective items drawn in tiles (a tile's rows are the strip's).
    let tiles: Bool
    let scratchCount: Int

    /// Rows a strip has: from `stripHeight` to twice that less one, or the whole band where it is shorter.
    static let stripHeight = 16
    /// Columns a tile of a perspective item has; its rows are the strip's.
    static let tileWidth = 128

    func draw(_ shaders: UnsafeBufferPointer<LayerShader>, rows: Range<Int>, frame: FrameRows) {
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: scratchCount)
        defer { scratch.deallocate() }
        // For each item and row of a strip: its span, its interior, and what the opaque items above it overwrite
        // whole there (on the stack where the system lets it: an allocation per band showed at 1080p).
        let capacity = max(1, shaders.count * 2 * Self.stripHeight)
        withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: 2 * capacity) { spans in
            withUnsafeTemporaryAllocation(of: RowCover.self, capacity: culls ? capacity : 1) { covers in
                let strips = max(1, rows.count / Self.stripHeight)
                for k in 0..<strips {
                    let strip = Strip(rows: rows.lowerBound + k * rows.count / strips..<rows.lowerBound + (k + 1) * rows.count / strips,
                                      spans: spans.baseAddress!, interiors: spans.baseAddress! + capacity,
                                      covers: culls ? covers.baseAddress! : nil, scratch: scratch)
                    draw(shaders, strip: strip, frame: frame)
                }
            }
        }
    }

    /// The rows of one strip and the space its items' spans, interiors (`LayerShader.interiorColumns`, once
    /// a row for the cover and every stretch drawn) and covers are worked out in (indexed by item, then row
    /// within the strip).
    private struct Strip {
        let rows: Range<Int>
        let spans: UnsafeMutablePointer<(Int, Int)>
        let interiors: UnsafeMutablePointer<(Int, Int)>
        let covers: UnsafeMutablePointer<RowCover>?
        let scratch: UnsafeMutablePointer<UInt32>
    }

    private func draw(_ shaders: UnsafeBufferPointer<LayerShader>, strip: Strip, frame: FrameRows) {
        let rowCount = strip.rows.count
        for r in 0..<rowCount {
            let y = strip.rows.lowerBound &+ r
            // Top down: what hides each item, then what it hides itself.
            var cover = RowCover()
            for k in shaders.indices.reversed() {
                let shader = shaders.baseAddress! + k
                let span = y >= shader.pointee.bounds.y0 && y < shader.pointee.bounds.y1 ? shader.pointee.span(row: y) : (0, 0)
                // Only a plan of rows has an interior.
                var interior = (Int.max, Int.min)
                if case .rows = shader.pointee.plan, span.0 < span.1 {
                    interior = shader.pointee.interiorColumns(row: y, from: span.0, to: span.1)
                }
                strip.spans[k &* rowCount &+ r] = span
                strip.interiors[k &* rowCount &+ r] = interior
                if let covers = strip.covers {
                    covers.advanced(by: k &* rowCount &+ r).initialize(to: cover)
                    if let c = shader.pointee.opaqueCover(row: y, from: span.0, to: span.1, interior: interior) { cover.add(c.0, c.1) }
                }
            }
            if let background = clears {
                // y is a row of the frame: y * width is within its pixel count.
                let row = frame.base + y &* frame.width
                // The C library's widest stores: `update(repeating:)` took 16 bytes a step, 6% of door at 4K.
                cover.forEachGap(in: 0, frame.width) { x0, x1 in segue_fill_row(row + x0, background, x1 - x0) }
            }
        }
        for k in shaders.indices {
            let shader = shaders.baseAddress! + k
            let spans = strip.spans + k &* rowCount, interiors = strip.interiors + k &* rowCount
            let covers = strip.covers.map { $0 + k &* rowCount }
            // Perspective items a tile at a time, each tile's rows in turn, so that the texels one row reads are
            // still in cache for the row below (measured against whole rows on 2 threads at 3840x2160, spin:
            // 2-10% faster a frame in 7 of 8 paired runs); other items in one tile as wide as the strip.
            let tileWidth = tiles && shader.pointee.drawsInTiles ? Self.tileWidth : Int.max
            var lo = Int.max, hi = Int.min
            for r in 0..<rowCount where spans[r].0 < spans[r].1 {
                lo = min(lo, spans[r].0)
                hi = max(hi, spans[r].1)
            }
            var left = lo
            while left < hi {
                let right = hi &- left > tileWidth ? left &+ tileWidth : hi
                shader.pointee.draw(strip: strip.rows, from: left, to: right, spans: spans, interiors: interiors, covers: covers,
                                    frame: frame, scratch: strip.scratch)
                left = right
            }
        }
    }
}

extension LayerShader {
    /// The rows of a strip over columns `left..<right`: row `r` over its span `spans[r]` with its interior
    /// `interiors[r]`, less the stretches `covers[r]` says opaque items above overwrite. One call an item and
    /// tile: a call through a pointer copies the shader (about 500 bytes), which once a row and stretch was a
    /// third of page-flip's band loop at 4K.
    fileprivate func draw(strip rows: Range<Int>, from left: Int, to right: Int, spans: UnsafePointer<(Int, Int)>,
                          interiors: UnsafePointer<(Int, Int)>, covers: UnsafePointer<RowCover>?, frame: FrameRows,
                          scratch: UnsafeMutablePointer<UInt32>) {
        let plain = shadesSampled ? unshaded : nil
        for r in 0..<rows.count {
            let x0 = max(spans[r].0, left), x1 = min(spans[r].1, right)
            guard x0 < x1 else { continue }
            let y = rows.lowerBound &+ r, interior = interiors[r]
            // y is a row of the frame: y * width is within its pixel count.
            let row = frame.base + y &* frame.width
            if let covers {
                covers[r].forEachGap(in: x0, x1) { x0, x1 in
                    draw(row: row, y: y, from: x0, to: x1, interior: interior, plain: plain, scratch: scratch)
                }
            } else {
                draw(row: row, y: y, from: x0, to: x1, interior: interior, plain: plain, scratch: scratch)
            }
        }
    }
}

/// The frame's rows, shared by the bands (each band writes only its own rows).
private struct FrameRows: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt32>
    let width: Int
}
