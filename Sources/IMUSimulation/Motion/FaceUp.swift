/// Which device axis points up while the device rests on a face (six-position calibration).
public enum FaceUp: String, Sendable, CaseIterable, Equatable, Hashable {
    case zUp = "+z", zDown = "-z", yUp = "+y", yDown = "-y", xUp = "+x", xDown = "-x"

    /// The device axis (unit vector, device frame) that points up, so the accelerometer reads it as +1 g.
    public var upAxis: Vector3 {
        switch self {
        case .zUp: return Vector3(0, 0, 1)
        case .zDown: return Vector3(0, 0, -1)
        case .yUp: return Vector3(0, 1, 0)
        case .yDown: return Vector3(0, -1, 0)
        case .xUp: return Vector3(1, 0, 0)
        case .xDown: return Vector3(-1, 0, 0)
        }
    }

    /// Device → body rotation putting `upAxis` up.
    var mount: Quaternion {
        let quarter = Double.pi / 2
        switch self {
        case .zUp: return .identity
        case .zDown: return .rotationX(.pi)
        case .yUp: return .rotationX(quarter)      // y → z
        case .yDown: return .rotationX(-quarter)
        case .xUp: return .rotationY(-quarter)     // x → z
        case .xDown: return .rotationY(quarter)
        }
    }
}
