/// A unit quaternion (w, x, y, z) rotating device-frame vectors into the world frame.
///
/// Orientation is integrated as a quaternion rather than by summing per-axis angles: the
/// raw-sensor seed article shows per-axis sums drift as soon as two axes turn together, because
/// rotations do not commute.
struct Quaternion: Sendable, Equatable {
    var w: Double
    var v: Vector3

    static let identity = Quaternion(w: 1, v: .zero)

    /// Hamilton product `self ⊗ other`.
    /// Written per component: on SSE2 the three-lane vector form spends more on shuffles than on
    /// arithmetic, and this product sits on the orientation filter's tick-to-tick dependency chain.
    @inline(__always) static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        let (ax, ay, az) = (a.v.x, a.v.y, a.v.z)
        let (bx, by, bz) = (b.v.x, b.v.y, b.v.z)
        return Quaternion(w: a.w * b.w - (ax * bx + ay * by + az * bz),
                          v: Vector3(a.w * bx + b.w * ax + (ay * bz - az * by),
                                     a.w * by + b.w * ay + (az * bx - ax * bz),
                                     a.w * bz + b.w * az + (ax * by - ay * bx)))
    }

    @inline(__always) var normalized: Quaternion {
        let n2 = w * w + dot(v, v)
        // Integration keeps |q| within about 1e-6 of 1 per step: one Newton step for 1/√n² is
        // exact to ~1e-12 there and avoids a square root; far from 1, normalise exactly.
        if abs(n2 - 1) < 1e-3 {
            let k = (3 - n2) / 2
            return Quaternion(w: w * k, v: v * k)
        }
        let n = n2.squareRoot()
        return n > 0 ? Quaternion(w: w / n, v: v / n) : .identity
    }

    /// Rotation by `angle` = |rotationVector| (rad) about its direction.
    @inline(__always) static func exponential(_ rotationVector: Vector3) -> Quaternion {
        let (x, y, z) = (rotationVector.x, rotationVector.y, rotationVector.z)
        let angle2 = x * x + y * y + z * z
        // One 40 ms filter step turns by under 0.2 rad in daily motion (5 rad/s); there the
        // Taylor series of cos(θ/2) and sin(θ/2)/θ to fourth order in θ is exact to better than
        // 2e-9 (the first omitted terms, (θ/2)⁶/720 and (θ/2)⁶/5040).
        if angle2 < 0.04 {
            // Multiplied by the reciprocals (1/24, 1/6, 1/120), not divided: a division would sit
            // on the filter's tick-to-tick dependency chain.
            let h2 = angle2 * 0.25
            let c = 1 - h2 * 0.5 + h2 * h2 * (1.0 / 24)
            let sOverAngle = 0.5 - h2 * (0.5 / 6) + h2 * h2 * (0.5 / 120)
            return Quaternion(w: c, v: rotationVector * sOverAngle)
        }
        let angle = angle2.squareRoot()
        let half = angle / 2
        return Quaternion(w: _cos(half), v: rotationVector * (_sin(half) / angle))
    }

    /// Rotates a vector from the device frame into the world frame.
    @inline(__always) func rotate(_ x: Vector3) -> Vector3 {
        // v' = x + 2w (q × x) + 2 q × (q × x)
        let t = 2 * cross(v, x)
        return x + w * t + cross(v, t)
    }

    /// Rotates a world-frame vector into the device frame (the inverse rotation).
    @inline(__always) func inverseRotate(_ x: Vector3) -> Vector3 {
        Quaternion(w: w, v: -v).rotate(x)
    }

    /// World "up" (0, 0, 1) seen in the device frame: `inverseRotate((0, 0, 1))`, which is the
    /// third row of the rotation matrix, (2(xz − wy), 2(yz + wx), 1 − 2(x² + y²)), in a third of
    /// the arithmetic.
    @inline(__always) var worldUpInDevice: Vector3 {
        Vector3(2 * (v.x * v.z - w * v.y), 2 * (v.y * v.z + w * v.x), 1 - 2 * (v.x * v.x + v.y * v.y))
    }

    /// The shortest rotation taking unit vector `from` onto unit vector `to`.
    static func rotation(from: Vector3, to: Vector3) -> Quaternion {
        let c = dot(from, to)
        if c < -0.999999 {
            // Opposite: turn half a turn about any axis perpendicular to `from`.
            var axis = cross(Vector3(1, 0, 0), from)
            if dot(axis, axis) < 1e-6 { axis = cross(Vector3(0, 1, 0), from) }
            return Quaternion(w: 0, v: axis / dot(axis, axis).squareRoot())
        }
        return Quaternion(w: 1 + c, v: cross(from, to)).normalized
    }
}

@inline(__always) func dot(_ a: Vector3, _ b: Vector3) -> Double { (a * b).sum() }

@inline(__always) func cross(_ a: Vector3, _ b: Vector3) -> Vector3 {
    Vector3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

@inline(__always) func length(_ a: Vector3) -> Double { dot(a, a).squareRoot() }

#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif
@inline(__always) func _cos(_ x: Double) -> Double { cos(x) }
@inline(__always) func _sin(_ x: Double) -> Double { sin(x) }
