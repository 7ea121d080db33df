import IMUCLI

/// Progress on standard error: rewritten in place on a terminal, silent until the summary otherwise.
final class RecordProgress {
    let isTTY = Terminal.standardError.acceptsEscapes   // a terminal that understands the redraw
    let quiet: Bool
    private var lastDraw = 0.0
    /// Redraws per second on a terminal (4: readable, negligible cost).
    static let redrawHz = 4.0

    init(quiet: Bool) { self.quiet = quiet }

    func update(_ g: GapDetector, losses: SampleLosses) {
        guard isTTY, !quiet else { return }
        let now = BootClock.nowSeconds()
        guard now - lastDraw >= 1 / Self.redrawHz else { return }
        lastDraw = now
        Terminal.standardError.write("\r\u{1B}[K" + line(g, losses))
        Terminal.standardError.flush()
    }

    /// Gaps listed one by one; after that they are only counted (a bad link would flood the screen).
    static let listedGaps = 10
    private var listed = 0

    func report(_ gap: GapDetector.Gap) {
        guard !quiet, listed <= Self.listedGaps else { return }
        listed += 1
        if listed > Self.listedGaps {
            let text = "more gaps: counted in the summary, not listed\n"
            Terminal.standardError.write(isTTY ? "\r\u{1B}[K" + text : text)
            Terminal.standardError.flush()
            return
        }
        let text = "gap of \(fixed(gap.seconds, 3)) s before t=\(fixed(gap.time, 3)) (\(gap.missingSamples.map { "≈\(counted($0, "sample")) missing from the source" } ?? "samples missing from the source; how many is unknown: no sample rate is known yet"))\n"
        Terminal.standardError.write(isTTY ? "\r\u{1B}[K" + text : text)
        Terminal.standardError.flush()
    }

    /// `gnssRows`: rows with a ground speed, when the recording has the column (docs/gps.md);
    /// `written`: the samples that reached the file, when a write failed (fewer than received).
    /// `blanked`: barometer readings left empty as implausible (`RecordingWriter.blankedReadings`).
    func finish(_ g: GapDetector, path: String, losses: SampleLosses, gnssRows: Int? = nil, written: Int? = nil, blanked: Int = 0) {
        guard !quiet else { return }
        if isTTY { Terminal.standardError.write("\r\u{1B}[K") }
        let largest = g.gaps.map(\.seconds).max().map { ", largest \(fixed($0, 3)) s" } ?? ""
        let speed = gnssRows.map { ", gnss_speed on \($0) of \(counted(g.count, "sample"))" } ?? ""
        let kept = written.map { "\($0) of " } ?? ""
        let glitches = blanked > 0 ? ", \(counted(blanked, "pressure or temperature reading")) no barometer gives left empty" : ""
        Terminal.standardError.write("recorded " + kept + line(g, losses) + "\(largest)\(speed)\(glitches) → \(path == "-" ? "standard output" : path.escapedForTerminal)\n")
        Terminal.standardError.flush()
    }

    /// `losses.summary` is the source's own count (SampleLosses), never a literal.
    private func line(_ g: GapDetector, _ losses: SampleLosses) -> String {
        let seconds = (g.last ?? 0) - (g.first ?? 0)
        let rate = g.achievedRate.map { fixed($0, 1) + " Hz" } ?? "– Hz"
        return "\(counted(g.count, "sample")) in \(fixed(seconds, 1)) s, \(rate), \(losses.summary), gaps \(g.gaps.count)"
    }
}

/// `value` with `decimals` places, locale-independent.
func fixed(_ value: Double, _ decimals: Int) -> String {
    var bytes: [UInt8] = []
    RecordingWriter.appendFixed(value, decimals: decimals, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}
