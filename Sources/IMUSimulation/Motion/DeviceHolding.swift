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
    /// Clipped to a belt at the lower back (over the sacrum, as gait studies wear their sensor):
    /// top edge up, screen facing backward; moves with the pelvis.
    case lowerBack
    /// Rotation relative to `faceUp`, in radians, applied about the device's own axes in the
    /// order yaw (z), then pitch (y), then roll (x): mount = faceUp · Rz(yaw) · Ry(pitch) · Rx(roll).
    case custom(roll: Double, pitch: Double, yaw: Double)

    /// Parses the names used in `sim:` specs: face-up, hand, front-pocket (or pocket), back-pocket, bag, armband, lower-back (or belt).
    public init?(name: String) {
        switch name.lowercased() {
        case "face-up", "faceup", "flat": self = .faceUp
        case "hand", "in-hand", "inhand": self = .inHand
        case "pocket", "front-pocket", "frontpocket": self = .frontPocket
        case "back-pocket", "backpocket": self = .backPocket
        case "bag": self = .bag
        case "armband", "arm": self = .armband
        case "lower-back", "lowerback", "belt": self = .lowerBack
        default: return nil
        }
    }

    /// The name `init(name:)` accepts for this holding; nil for `custom`.
    public var name: String? {
        switch self {
        case .faceUp: return "face-up"
        case .inHand: return "hand"
        case .frontPocket: return "front-pocket"
        case .backPocket: return "back-pocket"
        case .bag: return "bag"
        case .armband: return "armband"
        case .lowerBack: return "lower-back"
        case .custom: return nil
        }
    }

    /// Names accepted by `init(name:)`, for help and error messages.
    public static let names = ["face-up", "hand", "front-pocket", "back-pocket", "bag", "armband", "lower-back"]

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
        case .lowerBack:
            // x → right (−y), y → up (z), z → backward (−x, out of the back).
            return Quaternion(columnX: Vector3(0, -1, 0), columnY: Vector3(0, 0, 1), columnZ: Vector3(-1, 0, 0))
        case .custom(let roll, let pitch, let yaw):
            return flat * .rotationZ(yaw) * .rotationY(pitch) * .rotationX(roll)
        }
    }

    /// Peak rotation of the device per gait cycle, in radians, at a walk (0.25 g bounce);
    /// scaled with the gait's bounce. Illustrative figures, chosen so that a pocket swings with the
    /// thigh (±20°, the thigh's range at a walk is ~±20–25° in gait-lab data) and a hand barely moves.
    var sway: SwayAmplitudes {
        let degree = Double.pi / 180
        // Lever arms (illustrative): a front pocket sits ~0.3 m below the hip joint, a back pocket
        // ~0.15 m, an armband ~0.15 m below the shoulder, a bag hangs ~0.35 m from its strap; a
        // phone in the hand tips about the wrist ~0.08 m behind it.
        // Impact and asymmetry are fitted by eye to the Oxford step-counter recordings (CC BY 4.0):
        // walking with the phone in a trouser pocket gives |a| a standard deviation of 0.3–0.7 g,
        // 99th percentiles of 1.8–4 g, skewness 0.5–2.2 and a rhythm dominated by the stride
        // (autocorrelation at one step 0.05–0.3), while in the hand or on an armband |a| varies by
        // 0.1–0.4 g with skewness −0.1…0.4 and both feet alike.
        let wrist = Vector3(-0.08, 0, 0)
        switch self {
        case .faceUp:
            return SwayAmplitudes(pitchStep: 2 * degree, pitchStride: 1 * degree, rollStride: 3 * degree, yawStride: 2 * degree,
                                  leverArm: -wrist)
        case .inHand:
            return SwayAmplitudes(pitchStep: 3 * degree, pitchStride: 1.5 * degree, rollStride: 4 * degree, yawStride: 3 * degree,
                                  leverArm: -wrist)
        case .frontPocket:
            return SwayAmplitudes(pitchStep: 2 * degree, pitchStride: 20 * degree, rollStride: 4 * degree, yawStride: 5 * degree,
                                  leverArm: Vector3(0, 0, -0.3), impact: 5, asymmetry: 0.5)
        case .backPocket:
            return SwayAmplitudes(pitchStep: 2 * degree, pitchStride: 12 * degree, rollStride: 5 * degree, yawStride: 6 * degree,
                                  leverArm: Vector3(0, 0, -0.15), impact: 5, asymmetry: 0.5)
        case .bag:
            return SwayAmplitudes(pitchStep: 4 * degree, pitchStride: 3 * degree, rollStride: 5 * degree, yawStride: 3 * degree,
                                  leverArm: Vector3(0, 0, -0.35), impact: 2.5, asymmetry: 0.3)
        case .armband:
            return SwayAmplitudes(pitchStep: 2 * degree, pitchStride: 15 * degree, rollStride: 3 * degree, yawStride: 4 * degree,
                                  leverArm: Vector3(0, 0, -0.15), impact: 1, asymmetry: 0.1)
        case .lowerBack:
            // The pelvis in gait-lab data at a walk: tilt ±2° (twice per stride) and rotation ±4°
            // once per stride; no lever arm (the device is on the trunk), both feet alike but for
            // a small asymmetry. Calibrated (session 17) with scripts/lowerback-gait-stats.py,
            // measured on real-dev s02/s03 lower-back (10 slow walks, 1.33–1.72 steps/s) against
            // simulated walks at a 0.17 g bounce, 1.4 and 1.65 steps/s and irregular, seeds 1–3
            // (docs/accuracy.md, "The simulator's lower back"):
            // - roll (obliquity) 0.75° at a 0.25 g bounce (0.5° at 0.17 g): measured on real-dev
            //   s02/s03 lower-back, sideways acceleration at half the cadence 0.027–0.074 g; the
            //   body's own sway gives 0.05 g there and each degree of roll tilts 0.017 g of gravity
            //   into it in phase (4° read 0.084–0.098 g);
            // - impact 2.6 (a 2.1 × bounce spike): measured on real-dev s02/s03 lower-back, strike
            //   peak above the preceding 0.3 s minimum 0.50–0.72 g, kurtosis of |a| − 1 g 3.2–8.3,
            //   vertical RMS 0.138–0.196 g (impact 2 with the narrow spike read 0.37–0.42 g, 1.8);
            // - `TrunkJolt`: brake 1.3 × and sideways 1.1 × the vertical impact, measured on real-dev
            //   s02/s03 lower-back, RMS fore-aft 0.117–0.185 g and sideways 0.104–0.150 g (the
            //   smooth model: 0.055–0.060 and 0.069–0.072 g) and the step counter's coupling of
            //   |a| − 1 g to the horizontal size 0.445–0.722 (smooth: −0.09–0.28); spread ±0.4
            //   (23 % relative deviation), measured on real-dev s02/s03 lower-back, strike-to-strike
            //   deviation of the impact 19–35 % (±10 % strength alone: 10–16 %); first strike 0.5 ×,
            //   measured on real-dev s02/s03 lower-back, first strike / steady median 0.40–0.90.
            return SwayAmplitudes(pitchStep: 2 * degree, pitchStride: 1 * degree, rollStride: 0.75 * degree, yawStride: 4 * degree,
                                  impact: 2.6, asymmetry: 0.1,
                                  trunk: TrunkJolt(brake: 1.3, sideways: 1.1, spread: 0.4, firstStrike: 0.5))
        case .custom:
            return SwayAmplitudes(pitchStep: 3 * degree, pitchStride: 5 * degree, rollStride: 4 * degree, yawStride: 3 * degree)
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
    /// Where the device sits relative to the pivot it swings about, body frame, m.
    var leverArm: Vector3 = .zero
    /// How strongly heel strikes reach the device (1 = as the torso feels them).
    var impact: Double = 1
    /// Left/right difference of the heel-strike spike (0 = both feet alike; 0.5 = the near
    /// foot's spike is 3× the far foot's, as for a phone in a trouser pocket).
    var asymmetry: Double = 0
    /// The strike's own jolts on a trunk-worn device (nil: the smooth model of the other holdings).
    var trunk: TrunkJolt? = nil

    /// The rotations multiplied by `factor` (a harder gait swings more); the rest unchanged.
    func scaled(by factor: Double) -> SwayAmplitudes {
        var s = self
        s.pitchStep *= factor; s.pitchStride *= factor; s.rollStride *= factor; s.yawStride *= factor
        return s
    }
}
