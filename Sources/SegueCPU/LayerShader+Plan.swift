import SegueCore

// The row plan: how an item's rows are drawn, decided once when its shader is made, so that a row asks one
// `switch` where it re-tested the item's flags (blit, affine, a whole-texel offset, texels, an overlay, a
// blurred rectangle) on every row and every stretch of it.
extension LayerShader {
    /// How every row of an item is drawn. Each case holds what its rows need beyond the shader's common
    /// fields (the pixel-to-local map, the content, the mask and the overlay, which every plan's edge pixels
    /// read through the general function).
    enum Plan {
        /// The shortcuts are off: every pixel of each row's span takes the general per-pixel function, the
        /// reference every other plan (a blit's too) is tested against (`FastPathTests`).
        case reference
        /// Texels one to one onto pixels over a rectangle of whole pixels: row copies, or blends at the
        /// item's opacity; rows outside the rectangle are not covered.
        case blit(DrawItem.Blit)
        /// The edges of each row (and every pixel of a row without an interior) take `edges`, its interior,
        /// where edge and mask coverage are exactly 1, `interior`.
        case rows(edges: Edges, interior: Interior)

        /// How the pixels short of a row's interior are drawn.
        enum Edges {
            /// The general per-pixel function.
            case general
            /// A blurred rectangle on an axis-aligned affine item (a shadow, mostly): `u` depends on the
            /// column alone and `v` on the row, so the blur's separable factor along `u`,
            /// `0.25 (E((du + hx) k) - E((du - hx) k))`, is worked out once per column of the bounds (from
            /// `x0`, held by the shader's `ColumnStore`) and the per-pixel function takes it from there
            /// (`drawBlurredRect`), the same values in the same order.
            case blurredRect(UnsafePointer<Float>)
        }

        /// How a row's interior is drawn.
        enum Interior {
            /// A colour on an affine item: the colour, overlaid where there is an overlay.
            case color
            /// Texels one to one onto pixels at a whole-texel offset (pixel x shows texel x + dx of row
            /// y + dy): a row copy, or a blend at the item's opacity. Chosen where there is no overlay, or
            /// where the overlay is shaded after sampling (`shadesSampled`); drawn with the overlay, it is the
            /// axis-aligned interior at `stepX`.
            case copy(dx: Int, dy: Int, stepX: Int64)
            /// A snapshot on an affine item whose texel row is the same all along a pixel row (no rotation):
            /// the separable bilinear, texel columns `stepX` apart a pixel (32.32 fixed point).
            case axisAligned(stepX: Int64)
            /// A rotated snapshot on an affine item: texel positions stepped by `(stepX, stepY)` a pixel.
            case stepped(stepX: Int64, stepY: Int64)
            /// A perspective item: a division a pixel (AVX2), or affine sub-spans.
            case perspective
        }
    }

    /// The plan for `item`'s rows, from the shader's fields as `init` has worked them out.
    static func plan(_ item: DrawItem, shortcuts: Bool, columns: ColumnStore?, mask: MaskShape, hasOverlay: Bool,
                     shadesSampled: Bool, bounds: PixelBounds, matrix: (a: Float, b: Float, d: Float, g: Float),
                     scale: (x: Float, y: Float)) -> Plan {
        guard shortcuts else { return .reference }
        if let blit = item.record.asBlit { return .blit(blit) }
        var edges = Plan.Edges.general
        if item.isAffine, matrix.b == 0, matrix.d == 0, case let .blurred(shape) = mask, shape.r == 0,
           bounds.x0 < bounds.x1, let columns {
            // As `drawGeneral` has it: `u = (d py + g) + px a`, where `d py` is 0.
            let (g, a) = (matrix.g, matrix.a)
            edges = .blurredRect(columns.keep((bounds.x0..<bounds.x1).map { x in
                let u = g + (Float(x) + 0.5) * a, du = u - shape.cx
                return 0.25 * (BlurredShape.erf((du + shape.hx) * shape.k) - BlurredShape.erf((du - shape.hx) * shape.k))
            }))
        }
        guard item.isAffine else { return .rows(edges: edges, interior: .perspective) }
        guard case .snapshot = item.source else { return .rows(edges: edges, interior: .color) }
        // The texel steps `drawInterior` takes along a row, in 32.32 fixed point: the same for every row.
        let one = 4_294_967_296.0
        let stepX = PixelMath.truncate(Double(matrix.a) * Double(scale.x) * one)
        let stepY = PixelMath.truncate(Double(matrix.b) * Double(scale.y) * one)
        if let offset = item.texelOffset, !hasOverlay || shadesSampled {
            return .rows(edges: edges, interior: .copy(dx: offset.dx, dy: offset.dy, stepX: stepX))
        }
        if stepY != 0 { return .rows(edges: edges, interior: .stepped(stepX: stepX, stepY: stepY)) }
        return .rows(edges: edges, interior: .axisAligned(stepX: stepX))
    }

}

/// Per-column values some plans work out once per frame (a blurred rectangle's factors along `u`), kept for
/// as long as the shaders that point into them are drawn: a shader holds a plain pointer, so that copying
/// it retains nothing (a shader with an array in it was copied, retained and released on every row).
final class ColumnStore: @unchecked Sendable {
    private var kept: [UnsafeMutableBufferPointer<Float>] = []

    /// `values`, kept until this store goes.
    func keep(_ values: [Float]) -> UnsafePointer<Float> {
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(1, values.count))
        _ = buffer.initialize(from: values)
        kept.append(buffer)
        return UnsafePointer(buffer.baseAddress!)
    }

    deinit { for buffer in kept { buffer.deallocate() } }
}
