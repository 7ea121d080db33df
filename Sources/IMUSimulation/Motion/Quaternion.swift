#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A unit quaternion `w + xi + yj + zk` describing a rotation (Hamilton convention).
///
/// In the simulator an orientation quaternion `q` maps device-frame vectors to world-frame vectors:
/// `v_world = q.rotate(v_device)`. World frame: x east, y north, z up (gravity along −z).
public struct Quaternion: Sendable, Equatable {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w; self.x = x; self.y = y; self.z = z
    }

    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// Rotation by `angle` radians about `axis` (need not be normalised; zero axis gives identity).
    public init(axis: Vector3, angle: Double) {
        let length = (axis * axis).sum().squareRoot()
        guard length > 0 else { self = .identity; return }
        let s = sin(angle / 2) / length
        self.init(w: cos(angle / 2), x: axis.x * s, y: axis.y * s, z: axis.z * s)
    }

    /// Rotation about the x axis by `angle` radians.
    public static func rotationX(_ angle: Double) -> Quaternion { Quaternion(w: cos(angle / 2), x: sin(angle / 2), y: 0, z: 0) }
    /// Rotation about the y axis by `angle` radians.
    public static func rotationY(_ angle: Double) -> Quaternion { Quaternion(w: cos(angle / 2), x: 0, y: sin(angle / 2), z: 0) }
    /// Rotation about the z axis by `angle` radians.
    public static func rotationZ(_ angle: Double) -> Quaternion { Quaternion(w: cos(angle / 2), x: 0, y: 0, z: sin(angle / 2)) }

    /// The rotation whose matrix has these columns: where the device's x, y and z axes point in
    /// the outer frame. The columns must be orthonormal and right-handed.
    public init(columnX cx: Vector3, columnY cy: Vector3, columnZ cz: Vector3) {
        // Shepperd's method: branch on the largest of w, x, y, z to avoid dividing by a small number.
        let m00 = cx.x, m10 = cx.y, m20 = cx.z
        let m01 = cy.x, m11 = cy.y, m21 = cy.z
        let m02 = cz.x, m12 = cz.y, m22 = cz.z
        let trace = m00 + m11 + m22
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            self.init(w: s / 4, x: (m21 - m12) / s, y: (m02 - m20) / s, z: (m10 - m01) / s)
        } else if m00 > m11 && m00 > m22 {
            let s = (1 + m00 - m11 - m22).squareRoot() * 2
            self.init(w: (m21 - m12) / s, x: s / 4, y: (m01 + m10) / s, z: (m02 + m20) / s)
        } else if m11 > m22 {
            let s = (1 + m11 - m00 - m22).squareRoot() * 2
            self.init(w: (m02 - m20) / s, x: (m01 + m10) / s, y: s / 4, z: (m12 + m21) / s)
        } else {
            let s = (1 + m22 - m00 - m11).squareRoot() * 2
            self.init(w: (m10 - m01) / s, x: (m02 + m20) / s, y: (m12 + m21) / s, z: s / 4)
        }
        self = normalized
    }

    public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }
    public var norm: Double { (w * w + x * x + y * y + z * z).squareRoot() }
    public var normalized: Quaternion {
        let n = norm
        return Quaternion(w: w / n, x: x / n, y: y / n, z: z / n)
    }
    public var vector: Vector3 { Vector3(x, y, z) }

    /// Hamilton product: `(a * b).rotate(v) == a.rotate(b.rotate(v))`.
    @inlinable public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                   x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                   y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    public static func + (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(w: a.w + b.w, x: a.x + b.x, y: a.y + b.y, z: a.z + b.z)
    }

    public func dot(_ b: Quaternion) -> Double { w * b.w + x * b.x + y * b.y + z * b.z }

    /// Rotates `v` (for a unit quaternion): `q v q*`, expanded to avoid two full products.
    @inlinable public func rotate(_ v: Vector3) -> Vector3 {
        let u = Vector3(x, y, z)
        let t = 2 * cross(u, v)
        return v + w * t + cross(u, t)
    }

    /// Rotates `v` by the inverse rotation (world → device when `self` is device → world).
    @inlinable public func inverseRotate(_ v: Vector3) -> Vector3 { conjugate.rotate(v) }

    /// The rotation vector (axis × angle, radians) of this rotation, taking the shorter way round.
    public var rotationVector: Vector3 {
        let q = w < 0 ? Quaternion(w: -w, x: -x, y: -y, z: -z) : self
        let s = (q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
        guard s > 1e-300 else { return .zero }
        let angle = 2 * atan2(s, q.w)
        return q.vector * (angle / s)
    }

    /// The rotation `exp(v)` for a rotation vector `v` (axis × angle, radians).
    public init(rotationVector v: Vector3) {
        self.init(axis: v, angle: (v * v).sum().squareRoot())
    }

    /// Angle in radians of the rotation taking `self` to `other` (0…π).
    public func angle(to other: Quaternion) -> Double {
        let d = min(1, abs(dot(other)))
        return 2 * acos(d)
    }

    /// Spherical interpolation from `a` (s = 0) to `b` (s = 1) along the shorter arc.
    public static func slerp(_ a: Quaternion, _ b: Quaternion, _ s: Double) -> Quaternion {
        let delta = a.conjugate * b
        return a * Quaternion(rotationVector: delta.rotationVector * s)
    }
}

@inlinable func cross(_ a: Vector3, _ b: Vector3) -> Vector3 {
    Vector3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

@inlinable func length(_ v: Vector3) -> Double { (v * v).sum().squareRoot() }
