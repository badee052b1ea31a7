/// A 3x3 matrix for plane-to-plane (projective) maps, row-vector convention: `[x, y, 1] * M = [X, Y, W]`,
/// and the mapped point is `(X/W, Y/W)`. Rows: `x` row, `y` row, constant row.
public struct Matrix3: Sendable, Equatable {
    public var a, b, c: Double  // x row
    public var d, e, f: Double  // y row
    public var g, h, i: Double  // constant row

    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double,
                _ g: Double, _ h: Double, _ i: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f, self.g, self.h, self.i) = (a, b, c, d, e, f, g, h, i)
    }

    public var determinant: Double {
        a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    }

    /// The inverse, or nil when the map is singular (a layer seen edge-on).
    public var inverse: Matrix3? {
        let det = determinant
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        let k = 1 / det
        return Matrix3((e * i - f * h) * k, (c * h - b * i) * k, (b * f - c * e) * k,
                       (f * g - d * i) * k, (a * i - c * g) * k, (c * d - a * f) * k,
                       (d * h - e * g) * k, (b * g - a * h) * k, (a * e - b * d) * k)
    }

    /// `[x, y, 1] * self`.
    @inline(__always)
    public func apply(_ x: Double, _ y: Double) -> (Double, Double, Double) {
        (x * a + y * d + g, x * b + y * e + h, x * c + y * f + i)
    }

    /// All nine entries multiplied by `k` (the map is the same for any `k != 0`; `scaled(by: 1 / i)` makes
    /// the constant row's last entry 1).
    public func scaled(by k: Double) -> Matrix3 {
        Matrix3(a * k, b * k, c * k, d * k, e * k, f * k, g * k, h * k, i * k)
    }

    /// Entries in row order. Uploaded with `uniformMatrix3fv(transpose: false)`, GLSL reads them column by
    /// column, so the `mat3` M has this matrix's rows as its columns and `M * vec3(x, y, 1)` is `[x, y, 1] * self`.
    public var rowMajor: [Double] { [a, b, c, d, e, f, g, h, i] }
}
