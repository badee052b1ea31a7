import Dispatch
import Foundation
import SegueCore

/// The reference backend: draws a draw list into premultiplied RGBA8 on the CPU.
///
/// Fast by design: each item is prepared once per frame (`LayerShader`), only the columns of each row that
/// the item's outline can reach are visited, blits are row copies, interiors are sampled, overlaid and
/// blended four pixels a step (eight in the AVX2 row kernels, where the CPU has AVX2) with no per-pixel
/// allocation or dynamic dispatch, items hidden under opaque ones were already dropped by
/// the core, the stretches of a row that an opaque item overwrites whole are skipped beneath it (`RowCover`),
/// and the frame is cut into bands of rows that are drawn on all cores, each band drawing every item row by
/// row while the row is in cache.
public final class CPUCompositor: Renderer {
    public let name = "cpu"
    /// Threads the bands are spread over.
    public let threads: Int
    /// False: every pixel of each row's span takes the general per-pixel function, with none of the
    /// shortcuts (interior spans, spans clipped to a mask), for tests that check those draw the same picture.
    var takesShortcuts = true
    /// False: perspective items are drawn row by row too, for a test that checks tiles draw the same picture.
    var drawsTiles = true
    private var textures: [Texture] = []

    public init(threads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.threads = max(1, threads)
    }

    public var details: String {
        "CPU compositor on \(threads) thread\(threads == 1 ? "" : "s")\(PixelMath.hasAVX2 ? ", AVX2 row kernels" : "")"
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
        let shaders = list.items.map { LayerShader($0, textures: textures, shortcuts: takesShortcuts) }
        let width = list.width, height = list.height
        let background = list.background, clears = list.clearsBackground
        // Bands of about 16 rows, at least 4 per thread so uneven work evens out.
        let scratchCount = LayerShader.scratchCount(textures: textures)
        // Skipping what opaque items overwrite pays only where one has an item beneath it (door's halves over
        // the zoomed screen); otherwise each band draws item by item, which measured faster for hero, whose
        // only opaque item is at the bottom.
        let culls = takesShortcuts && shaders.dropFirst().contains { $0.isOpaque }
        let tiles = takesShortcuts && drawsTiles
        let bandCount = threads == 1 ? 1 : min(height, max(threads * 4, height / 16))
        let band = Band(clears: clears ? background : nil, culls: culls, tiles: tiles, scratchCount: scratchCount)
        target.pixels.withUnsafeMutableBufferPointer { buffer in
            let frame = FrameRows(base: buffer.baseAddress!, width: width)
            let draw: @Sendable (Int) -> Void = { k in
                // Each item used in place, not copied for every row the culling loop visits.
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
        withExtendedLifetime(textures) {}
    }
}

/// How each band of rows is drawn: every item over the band's rows, with the frame's background first.
private struct Band: Sendable {
    /// The background to clear the rows to first, if any.
    let clears: UInt32?
    /// Row by row, skipping what opaque items above overwrite whole; else item by item.
    let culls: Bool
    /// Perspective items drawn in tiles (item by item only).
    let tiles: Bool
    let scratchCount: Int

    func draw(_ shaders: UnsafeBufferPointer<LayerShader>, rows: Range<Int>, frame: FrameRows) {
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: scratchCount)
        defer { scratch.deallocate() }
        let width = frame.width
        if !culls {
            if let background = clears { (frame.base + rows.lowerBound * width).update(repeating: background, count: rows.count * width) }
            for k in shaders.indices {
                var y = max(rows.lowerBound, shaders[k].bounds.y0)
                let end = min(rows.upperBound, shaders[k].bounds.y1)
                if tiles && shaders[k].drawsInTiles {
                    drawTiles(shaders[k], rows: y..<end, frame: frame, scratch: scratch)
                    continue
                }
                while y < end {
                    defer { y &+= 1 }  // y < end
                    let (x0, x1) = shaders[k].span(row: y)
                    // y is a row of the frame: y * width is within its pixel count.
                    if x0 < x1 { shaders[k].draw(row: frame.base + y &* width, y: y, from: x0, to: x1, scratch: scratch) }
                }
            }
            return
        }
        // Row by row: each item's span, and what the opaque items above it overwrite whole there.
        var spans = [(Int, Int)](repeating: (0, 0), count: shaders.count)
        var covers = [RowCover](repeating: RowCover(), count: shaders.count)
        for y in rows {
            // y is a row of the frame: y * width is within its pixel count.
            let row = frame.base + y &* width
            // Top down: what hides each item, then what it hides itself.
            var cover = RowCover()
            for k in shaders.indices.reversed() {
                spans[k] = y >= shaders[k].bounds.y0 && y < shaders[k].bounds.y1 ? shaders[k].span(row: y) : (0, 0)
                covers[k] = cover
                if let c = shaders[k].opaqueCover(row: y, from: spans[k].0, to: spans[k].1) { cover.add(c.0, c.1) }
            }
            if let background = clears {
                cover.forEachGap(in: 0, width) { x0, x1 in (row + x0).update(repeating: background, count: x1 - x0) }
            }
            for k in shaders.indices where spans[k].0 < spans[k].1 {
                covers[k].forEachGap(in: spans[k].0, spans[k].1) { x0, x1 in
                    shaders[k].draw(row: row, y: y, from: x0, to: x1, scratch: scratch)
                }
            }
        }
    }

    /// Tiles of perspective items: `tileWidth` columns by up to `tileHeight` rows.
    static let tileWidth = 128, tileHeight = 16

    /// `shader` drawn over `rows` a tile at a time: each tile's rows in turn, over the columns of their spans
    /// that lie in the tile, so that the texels one row reads are still in cache for the row below. Measured
    /// against whole rows on 2 threads at 3840x2160, spin (whose bands draw item by item): 2-10% faster a
    /// frame in 7 of 8 paired runs, about 5% on average (8.0-8.6 -> 7.8-8.0 ms in the last three). Bands that
    /// cull under opaque items (page-flip, hinge) draw row by row and take no tiles.
    private func drawTiles(_ shader: LayerShader, rows: Range<Int>, frame: FrameRows, scratch: UnsafeMutablePointer<UInt32>) {
        withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: Self.tileHeight) { spans in
            var top = rows.lowerBound
            while top < rows.upperBound {
                let count = min(Self.tileHeight, rows.upperBound &- top)
                var lo = Int.max, hi = Int.min
                for k in 0..<count {
                    let span = shader.span(row: top &+ k)
                    spans[k] = span
                    if span.0 < span.1 { lo = min(lo, span.0); hi = max(hi, span.1) }
                }
                var left = lo
                while left < hi {
                    let right = min(hi, left &+ Self.tileWidth)
                    for k in 0..<count {
                        let x0 = max(spans[k].0, left), x1 = min(spans[k].1, right)
                        // A row of the frame: its index times the width is within its pixel count.
                        if x0 < x1 {
                            shader.draw(row: frame.base + (top &+ k) &* frame.width, y: top &+ k, from: x0, to: x1, scratch: scratch)
                        }
                    }
                    left = right
                }
                top &+= count
            }
        }
    }
}

/// The frame's rows, shared by the bands (each band writes only its own rows).
private struct FrameRows: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt32>
    let width: Int
}
