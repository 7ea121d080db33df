#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

/// The six resting positions of the six-position calibration, named by the device axis that
/// points up (so the accelerometer reads +1 g on it; docs/CONTRACTS.md §1: face-up reads (0, 0, +1) g).
public enum Face: String, Sendable, CaseIterable, Hashable, Codable {
    case zUp = "+z", zDown = "-z", xUp = "+x", xDown = "-x", yUp = "+y", yDown = "-y"

    /// The order the guided session asks for: flat first, then the edges (the same order as the
    /// simulator's six-position scenario, so `--simulate six-position` plays a correct session).
    public static let guidedOrder: [Face] = [.zUp, .zDown, .yUp, .yDown, .xUp, .xDown]
    /// Faces a six-position fit averages over (each axis up and down), for means over them.
    static let count = Double(guidedOrder.count)

    /// Which device axis (0 = x, 1 = y, 2 = z) this face puts vertical.
    public var axis: Int {
        switch self {
        case .xUp, .xDown: return 0
        case .yUp, .yDown: return 1
        case .zUp, .zDown: return 2
        }
    }

    /// +1 when the axis points up, −1 when it points down.
    public var sign: Double {
        switch self {
        case .zUp, .xUp, .yUp: return 1
        case .zDown, .xDown, .yDown: return -1
        }
    }

    /// The ideal accelerometer reading on this face, in g.
    public var gravity: Vector3 {
        var v = Vector3.zero
        v[axis] = sign
        return v
    }

    static func on(axis: Int, up: Bool) -> Face {
        switch (axis, up) {
        case (0, true): return .xUp
        case (0, false): return .xDown
        case (1, true): return .yUp
        case (1, false): return .yDown
        case (2, true): return .zUp
        default: return .zDown
        }
    }

    /// What to do, in words a person with a board or a phone understands.
    public var instruction: String {
        switch self {
        case .zUp: return "lay it flat, top side (screen, chip side) up"
        case .zDown: return "lay it flat, upside down (top side on the table)"
        case .xUp: return "stand it on its left edge (right edge pointing up)"
        case .xDown: return "stand it on its right edge (left edge pointing up)"
        case .yUp: return "stand it on its bottom edge (top edge pointing up)"
        case .yDown: return "stand it on its top edge (bottom edge pointing up)"
        }
    }

    /// The face whose axis dominates `mean` (g), when the tilt from that axis is within
    /// `maxTiltDegrees`; nil when the device is not resting on any face.
    public static func detect(mean: Vector3, maxTiltDegrees: Double) -> Face? {
        let norm = (mean * mean).sum().squareRoot()
        guard norm > 0.5 else { return nil }   // < 0.5 g: falling or thrown, not resting on anything
        var axis = 0
        for i in 1..<3 where abs(mean[i]) > abs(mean[axis]) { axis = i }
        let cosine = abs(mean[axis]) / norm
        guard cosine >= cos(maxTiltDegrees * .pi / 180) else { return nil }
        return on(axis: axis, up: mean[axis] > 0)
    }

    /// Angle in degrees between `mean` and the nearest axis.
    public static func tiltDegrees(of mean: Vector3) -> Double {
        let norm = (mean * mean).sum().squareRoot()
        guard norm > 0 else { return 90 }
        let largest = max(abs(mean.x), abs(mean.y), abs(mean.z))
        return acos(min(1, largest / norm)) * 180 / .pi
    }
}
