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
    @inline(__always) static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(w: a.w * b.w - dot(a.v, b.v),
                   v: a.w * b.v + b.w * a.v + cross(a.v, b.v))
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
        let angle2 = dot(rotationVector, rotationVector)
        // One 20 ms tick turns by well under 0.1 rad in daily motion; there the Taylor series of
        // cos(θ/2) and sin(θ/2)/θ to fourth order is exact to better than 1e-10.
        if angle2 < 0.01 {
            let h2 = angle2 / 4
            let c = 1 - h2 / 2 + h2 * h2 / 24
            let sOverAngle = 0.5 * (1 - h2 / 6 + h2 * h2 / 120)
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

import Foundation
@inline(__always) func _cos(_ x: Double) -> Double { Foundation.cos(x) }
@inline(__always) func _sin(_ x: Double) -> Double { Foundation.sin(x) }
