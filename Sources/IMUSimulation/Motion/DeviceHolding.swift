/// How the device is carried. Each holding is a fixed rotation from the device frame into the
/// walker's body frame (x forward, y to the walker's left, z up) plus how much it sways per step.
///
/// Device frame per docs/CONTRACTS.md §1: x toward the right edge, y toward the top edge, z out of the screen.
public enum DeviceHolding: Sendable, Equatable, Hashable {
    /// Flat, screen up, top edge pointing forward (on a table, or carried flat on the palm).
    case faceUp
    /// Held in front to read the screen: like `faceUp` but tilted top-edge-up by 35°.
    case inHand
    /// Trouser front pocket: top edge down, screen facing forward; swings with the thigh.
    case frontPocket
    /// Trouser back pocket: top edge up, screen facing the body; swings with the hip.
    case backPocket
    /// Loose in a bag: lying on its right edge, tilted; damped sway.
    case bag
    /// Armband on the left upper arm: top edge up, screen facing out; swings with the arm.
    case armband
    /// Rotation relative to `faceUp`, in radians, applied about the device's own axes in the
    /// order yaw (z), then pitch (y), then roll (x): mount = faceUp · Rz(yaw) · Ry(pitch) · Rx(roll).
    case custom(roll: Double, pitch: Double, yaw: Double)

    /// Parses the names used in `sim:` specs: face-up, hand, front-pocket (or pocket), back-pocket, bag, armband.
    public init?(name: String) {
        switch name.lowercased() {
        case "face-up", "faceup", "flat": self = .faceUp
        case "hand", "in-hand", "inhand": self = .inHand
        case "pocket", "front-pocket", "frontpocket": self = .frontPocket
        case "back-pocket", "backpocket": self = .backPocket
        case "bag": self = .bag
        case "armband", "arm": self = .armband
        default: return nil
        }
    }

    /// Names accepted by `init(name:)`, for help and error messages.
    public static let names = ["face-up", "hand", "front-pocket", "back-pocket", "bag", "armband"]

    /// Device → body rotation.
    public var mount: Quaternion {
        // Flat, top edge forward: device x → body −y (right), y → body x (forward), z → up.
        let flat = Quaternion(columnX: Vector3(0, -1, 0), columnY: Vector3(1, 0, 0), columnZ: Vector3(0, 0, 1))
        switch self {
        case .faceUp:
            return flat
        case .inHand:
            // 35°: a typical reading tilt (illustrative).
            return flat * .rotationX(35 * .pi / 180)
        case .frontPocket:
            // x → right (−y), y → down (−z), z → forward (x).
            return Quaternion(columnX: Vector3(0, -1, 0), columnY: Vector3(0, 0, -1), columnZ: Vector3(1, 0, 0))
                * .rotationX(-10 * .pi / 180)   // thigh leaning forward by ~10° when standing (illustrative)
        case .backPocket:
            // x → left (y), y → up (z), z → forward (x, into the body).
            return Quaternion(columnX: Vector3(0, 1, 0), columnY: Vector3(0, 0, 1), columnZ: Vector3(1, 0, 0))
        case .bag:
            // x → up, y → forward, z → left; then leaning 25° in the bag (illustrative).
            return Quaternion(columnX: Vector3(0, 0, 1), columnY: Vector3(1, 0, 0), columnZ: Vector3(0, 1, 0))
                * .rotationY(25 * .pi / 180)
        case .armband:
            // x → backward (−x), y → up (z), z → left (y, out of the left arm).
            return Quaternion(columnX: Vector3(-1, 0, 0), columnY: Vector3(0, 0, 1), columnZ: Vector3(0, 1, 0))
        case .custom(let roll, let pitch, let yaw):
            return flat * .rotationZ(yaw) * .rotationY(pitch) * .rotationX(roll)
        }
    }

    /// Peak rotation of the device per gait cycle, in radians, at a walk (0.25 g bounce);
    /// scaled with the gait's bounce. Illustrative figures, chosen so that a pocket swings with the
    /// thigh (±20°, the thigh's range at a walk is ~±20–25° in gait-lab data) and a hand barely moves.
    var sway: SwayAmplitudes {
        let degree = Double.pi / 180
        switch self {
        case .faceUp: return SwayAmplitudes(pitchStep: 2 * degree, pitchStride: 1 * degree, rollStride: 3 * degree, yawStride: 2 * degree)
        case .inHand: return SwayAmplitudes(pitchStep: 3 * degree, pitchStride: 1.5 * degree, rollStride: 4 * degree, yawStride: 3 * degree)
        case .frontPocket: return SwayAmplitudes(pitchStep: 2 * degree, pitchStride: 20 * degree, rollStride: 4 * degree, yawStride: 5 * degree)
        case .backPocket: return SwayAmplitudes(pitchStep: 2 * degree, pitchStride: 12 * degree, rollStride: 5 * degree, yawStride: 6 * degree)
        case .bag: return SwayAmplitudes(pitchStep: 4 * degree, pitchStride: 3 * degree, rollStride: 5 * degree, yawStride: 3 * degree)
        case .armband: return SwayAmplitudes(pitchStep: 2 * degree, pitchStride: 15 * degree, rollStride: 3 * degree, yawStride: 4 * degree)
        case .custom: return SwayAmplitudes(pitchStep: 3 * degree, pitchStride: 5 * degree, rollStride: 4 * degree, yawStride: 3 * degree)
        }
    }
}

/// Peak body-frame rotation angles (radians) of the device during a gait cycle.
struct SwayAmplitudes: Sendable {
    /// Pitch (about the walker's left axis) once per step.
    var pitchStep: Double
    /// Pitch once per stride (two steps): a thigh or arm swinging.
    var pitchStride: Double
    /// Roll (about the forward axis) once per stride: the body rocking side to side.
    var rollStride: Double
    /// Yaw once per stride: hips and shoulders turning.
    var yawStride: Double
}
