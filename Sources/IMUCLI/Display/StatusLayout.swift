import Pedometer

/// Lays out the live status of `imu-steps` for a terminal of a given width, so that no line ever
/// wraps (a wrapped line cannot be redrawn in place: the erase would miss its first part).
///
/// - Wide enough (or width unknown): one line, `182 steps  110 spm  132.1 m  12:21 /km  floors ↑1 ↓1  walking  1:48`.
/// - 40 columns or more: a block of four rows, two label/value pairs per row.
/// - Narrower (a phone held upright): one label and value per row.
struct StatusLayout {
    var floorsAvailable: Bool
    var color: Bool

    /// Width of the two-column block's left cell: a 9-column label plus an 11-column value.
    static let cellWidth = 20
    /// Narrowest terminal that gets the two-column block (two cells plus a 20-column right value).
    static let twoColumnMinimum = 40

    func lines(_ s: PedometerSnapshot, width: Int?) -> [String] {
        let cadence = s.currentCadence.map { "\(Int(($0 * 60).rounded())) spm" } ?? "– spm"
        let pace = s.currentPace.map { StatusDisplay.paceText($0) } ?? "–"
        let distance = "\(StatusDisplay.fixed(s.distanceMeters, 1)) m"
        let floors = "↑\(s.floorsAscended) ↓\(s.floorsDescended)"
        let elapsed = StatusDisplay.clock(s.duration)

        let steps = counted(s.steps, "step")
        var parts = [paint(steps, code: "1;32"), cadence, distance, pace]
        var plainLength = steps.count + cadence.count + distance.count + pace.count
        if floorsAvailable { let floorsPart = "floors \(floors)"; parts.append(floorsPart); plainLength += floorsPart.count }
        parts.append(paint(s.activity.rawValue, code: "36"))
        parts.append(elapsed)
        plainLength += s.activity.rawValue.count + elapsed.count + 2 * (parts.count - 1)
        guard let width, width <= plainLength else { return [parts.joined(separator: "  ")] }

        var pairs: [(String, String, String?)] = [
            ("steps", "\(s.steps)", "1;32"), ("cadence", cadence, nil),
            ("distance", distance, nil), ("pace", pace, nil),
        ]
        if floorsAvailable { pairs.append(("floors", floors, nil)) }
        pairs += [("activity", s.activity.rawValue, "36"), ("elapsed", elapsed, nil)]
        func cell(_ p: (String, String, String?), padTo: Int?) -> (text: String, length: Int) {
            let label = p.0.count >= 9 ? String(p.0.prefix(9)) : p.0 + String(repeating: " ", count: 9 - p.0.count)
            let plain = label + p.1
            let text = label + (p.2.map { paint(p.1, code: $0) } ?? p.1)
            guard let padTo, plain.count < padTo else { return (text, plain.count) }
            return (text + String(repeating: " ", count: padTo - plain.count), padTo)
        }
        var rows: [(String, Int)] = []
        if width >= Self.twoColumnMinimum {
            var i = 0
            while i < pairs.count {
                if i + 1 < pairs.count {
                    let left = cell(pairs[i], padTo: Self.cellWidth), right = cell(pairs[i + 1], padTo: nil)
                    rows.append((left.text + right.text, left.length + right.length))
                } else {
                    rows.append(cell(pairs[i], padTo: nil))
                }
                i += 2
            }
        } else {
            rows = pairs.map { cell($0, padTo: nil) }
        }
        // A row that still does not fit is cut (plain, so no escape sequence is cut in half).
        return rows.enumerated().map { index, row in
            guard row.1 >= width else { return row.0 }
            let p = pairs[width >= Self.twoColumnMinimum ? index * 2 : index]
            return String((p.0 + " " + p.1).prefix(max(1, width - 1)))
        }
    }

    private func paint(_ text: String, code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
