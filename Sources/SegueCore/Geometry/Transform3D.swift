import Foundation

/// A 4x4 matrix in `CATransform3D`'s convention: row vectors, `p' = p * T`, translation in the last row
/// (`m41, m42, m43`) and perspective in the last column (`m34 = -1/d`).
public struct Transform3D: Sendable, Equatable, Hashable {
    public var m11, m12, m13, m14: Double
    public var m21, m22, m23, m24: Double
    public var m31, m32, m33, m34: Double
    public var m41, m42, m43, m44: Double

    public init(
        _ m11: Double, _ m12: Double, _ m13: Double, _ m14: Double,
        _ m21: Double, _ m22: Double, _ m23: Double, _ m24: Double,
        _ m31: Double, _ m32: Double, _ m33: Double, _ m34: Double,
        _ m41: Double, _ m42: Double, _ m43: Double, _ m44: Double
    ) {
        (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
        (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
        (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
        (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
    }

    public static let identity = Transform3D(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)

    /// `CATransform3DMakeTranslation`.
    public static func translation(_ x: Double, _ y: Double, _ z: Double = 0) -> Transform3D {
        Transform3D(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1)
    }

    /// `CATransform3DMakeScale`.
    public static func scale(_ x: Double, _ y: Double, _ z: Double = 1) -> Transform3D {
        Transform3D(x, 0, 0, 0, 0, y, 0, 0, 0, 0, z, 0, 0, 0, 0, 1)
    }

    /// `CATransform3DMakeRotation(θ, 0, 1, 0)`: a point `(x, y, 0)` goes to `(x cos θ, y, -x sin θ)`.
    public static func rotationY(_ theta: Double) -> Transform3D {
        let c = cos(theta), s = sin(theta)
        return Transform3D(c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1)
    }

    /// `CATransform3DMakeRotation(θ, 1, 0, 0)`: a point `(x, y, 0)` goes to `(x, y cos θ, y sin θ)`.
    public static func rotationX(_ theta: Double) -> Transform3D {
        let c = cos(theta), s = sin(theta)
        return Transform3D(1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1)
    }

    /// `CATransform3DMakeRotation(θ, 0, 0, 1)`: in the y-down frame a positive θ turns clockwise on screen,
    /// as `UIView`'s rotation does.
    public static func rotationZ(_ theta: Double) -> Transform3D {
        let c = cos(theta), s = sin(theta)
        return Transform3D(c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
    }

    /// Identity with `m34 = -1/d`, the sublayer transform that gives a layer perspective at eye distance `d`.
    public static func perspective(_ d: Double) -> Transform3D {
        var t = Transform3D.identity
        t.m34 = -1 / d
        return t
    }

    /// `self` then `other`: `p * (self * other) == (p * self) * other` (`CATransform3DConcat(self, other)`).
    public static func * (a: Transform3D, b: Transform3D) -> Transform3D {
        let ar = a.rows, br = b.rows
        var r = [[Double]](repeating: [0, 0, 0, 0], count: 4)
        for i in 0..<4 {
            for j in 0..<4 {
                r[i][j] = ar[i][0] * br[0][j] + ar[i][1] * br[1][j] + ar[i][2] * br[2][j] + ar[i][3] * br[3][j]
            }
        }
        return Transform3D(rows: r)
    }

    /// The row vector `[x, y, z, w] * self`.
    public func apply(_ v: (Double, Double, Double, Double)) -> (Double, Double, Double, Double) {
        (v.0 * m11 + v.1 * m21 + v.2 * m31 + v.3 * m41,
         v.0 * m12 + v.1 * m22 + v.2 * m32 + v.3 * m42,
         v.0 * m13 + v.1 * m23 + v.2 * m33 + v.3 * m43,
         v.0 * m14 + v.1 * m24 + v.2 * m34 + v.3 * m44)
    }

    public var rows: [[Double]] {
        [[m11, m12, m13, m14], [m21, m22, m23, m24], [m31, m32, m33, m34], [m41, m42, m43, m44]]
    }

    public init(rows r: [[Double]]) {
        self.init(r[0][0], r[0][1], r[0][2], r[0][3], r[1][0], r[1][1], r[1][2], r[1][3],
                  r[2][0], r[2][1], r[2][2], r[2][3], r[3][0], r[3][1], r[3][2], r[3][3])
    }
}

