import IMUCLI
import IMUCalibration

/// Turns session events into what the person reads. On a terminal the averaging progress is a
/// bar redrawn in place; elsewhere (a pipe, a log) it is one line per face.
struct SessionText {
    let out: OutputStream
    let isTTY: Bool
    /// Characters in the progress bar.
    static let barWidth = 24
    private var barShown = false

    init(out: OutputStream) {
        self.out = out
        isTTY = out.acceptsEscapes   // a terminal that understands the redraw
    }

    mutating func show(_ event: SessionEvent) {
        switch event {
        case let .place(face, number):
            line("[\(number)/\(Face.guidedOrder.count)] \(face.instruction) (\(face.rawValue) up).\n      Let go; averaging starts when it is still (or press Enter).")
        case .moving:
            line("      waiting for it to rest…")
        case let .notOnAFace(tilt):
            line("      resting, but \(Int(tilt.rounded()))° off any face: set it square on a flat surface")
        case let .wrongFace(found, expected):
            line("      wrong face: \(found.rawValue) is up, this step needs \(expected.rawValue) up: \(expected.instruction)")
        case let .repeatedFace(face, expected):
            let next = expected.map { "; next is \($0.rawValue) up: \($0.instruction)" } ?? ""
            line("      \(face.rawValue) up is already done\(next)")
        case let .settling(face):
            line("      \(face.rawValue) up and still; hold on…")
        case let .capturing(face, progress):
            if isTTY {
                let filled = Int(progress * Double(Self.barWidth))
                let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: Self.barWidth - filled)
                out.write("\r\u{1B}[K      averaging \(face.rawValue) up [\(bar)] \(Int((progress * 100).rounded()))%")
                out.flush()
                barShown = true
            } else if progress == 0 {
                line("      averaging \(face.rawValue) up…")
            }
        case let .motionDuringCapture(face):
            line("      moved while averaging: \(face.rawValue) up discarded, let it rest again")
        case let .captured(c):
            let m = c.acceleration.mean
            line("      done: \(c.face.rawValue) up, mean \(signed(m.x)) \(signed(m.y)) \(signed(m.z)) g over \(fixed(c.seconds, 1)) s")
        case .finished:
            line("All six faces captured.")
        }
    }

    private mutating func line(_ text: String) {
        if barShown { out.write("\r\u{1B}[K"); barShown = false }
        out.write(text + "\n")
        out.flush()
    }
}

/// `value` with `decimals` places, locale-independent.
func fixed(_ value: Double, _ decimals: Int) -> String {
    var bytes: [UInt8] = []
    RecordingWriter.appendFixed(value, decimals: decimals, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

/// Places the report gives a g value (and the unitless scale and misalignment beside it): 10 µg,
/// as finely as a recording keeps acceleration (`RecordingColumn.decimals`, below the noise floor).
let reportDecimals = RecordingColumn.ax.decimals

/// `reportDecimals` places with an explicit sign, for aligned columns of g values.
func signed(_ value: Double, _ decimals: Int = reportDecimals) -> String {
    (value >= 0 ? "+" : "") + fixed(value, decimals)
}
