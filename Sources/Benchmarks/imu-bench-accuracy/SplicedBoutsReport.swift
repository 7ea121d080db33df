import Pedometer

/// Short real walks at the lower back, built at run time from the real-dev slow walks (issue 14
/// part 1: "a walk of 4 or more steps between pauses counts in full"). The held-out daily-life
/// sessions walk 6 to 20 steps between pauses; the real-dev trials walk 32 to 44 steps between
/// two stands. Each trial is cut at its own foot strikes and joined into walks of 4 to 20 steps:
/// the trial's stand and first `c` steps, joined at the same phase of a step of the same foot to
/// its last `n − c` steps, and the trial's standing again. Every piece is the person's own motion;
/// only the joints (one per walk, blended over `blendSeconds`) are made. Nothing of the recordings
/// is stored: they are read where they are (`RealDevReport.directory`), as the other real-dev
/// sets are, and the set is skipped when they are absent.
///
/// Split: the real-dev walks' (`RealDevReport.tunedWalkSubjects`: tuned on s02 and s03, held out
/// s01, s04, s05, s06). Scored per person; the headline is the held-out persons' figure.
enum SplicedBoutsReport {
    /// Steps per walk of each trial's session, the 4 to 20 (one more where the trial's
    /// strikes leave an odd number between the joined steps: the joint keeps one foot's steps).
    static let walkLengths = [4, 6, 8, 10, 12, 16, 20]
    /// Standing between walks, s, in turn (the daily-life sessions' pauses of a few seconds); the
    /// trial's own stand before its first step, shortened to it when shorter.
    static let pauses = [3.0, 2.0, 4.0, 2.5, 3.5]
    /// A walk's first piece starts this long before its first strike, s: the stand's last part and
    /// the weight shift that starts a walk (gait initiation, 0.4 to 0.6 s), as recorded.
    static let leadSeconds = 1.5
    /// Its last piece ends this long after the last strike, s (the trunk settling), or sooner at
    /// the recording's end or `nextStrikeMargin` before a strike that is not the walk's.
    static let tailSeconds = 1.0
    static let nextStrikeMargin = 0.3
    /// The joint between two steps of one foot: this fraction of the next step's interval after
    /// the strike (mid-stance, away from the impacts).
    static let jointPhase = 0.3
    /// Pieces overlap and are blended linearly over this, s (the sensor's frame is the same).
    static let blendSeconds = 0.1
    /// A piece with a larger gap between rows is not used, s: the trials lost packets, up to
    /// 0.1 s at a time; a quarter of a slow step could hide a strike.
    static let largestGap = 0.25

    struct Session {
        var name: String
        var subject: String
        var tuned: Bool
        var samples: [MotionSample]
        var capabilities: SensorCapabilities
        /// Each walk's true steps, its span in the session and its foot strikes' times in it, s.
        var walks: [(steps: Int, span: Range<Double>, strikes: [Double])]
        var skipped: Int
        var trueSteps: Int { walks.reduce(0) { $0 + $1.steps } }
    }

    /// Rows of `r` with time in `from..<to`; nil when a packet was lost inside.
    static func piece(_ r: RealDevReport.Recording, _ from: Double, _ to: Double) -> [MotionSample]? {
        let rows = r.samples.filter { $0.time >= from && $0.time < to }
        guard rows.count > 1, zip(rows.dropFirst(), rows).allSatisfy({ $0.time - $1.time <= largestGap }) else { return nil }
        return rows
    }

    /// Builds one trial's session: stand, walk, stand, … with the walks of `walkLengths`.
    static func session(_ r: RealDevReport.Recording, subject: String) -> Session? {
        // The trial's walk: its strikes up to the end of its walking segment; some trials add a
        // step or two after standing for seconds at the end (s01 t3, s03 t3 to t6, s06 t5),
        // which are no part of it, nor is a strike clamped onto the last row.
        let walkingEnd = r.walkingEnd ?? .infinity
        let walkCount = zip(r.stepTimes, r.alignedStepTimes).prefix { given, aligned in
            given <= walkingEnd + 0.01 && aligned.lowerBound == aligned.upperBound
        }.count
        let given = r.alignedStepTimes
        let strikes = given.prefix(walkCount).map(\.lowerBound)
        let nextStrike = walkCount < given.count ? given[walkCount].lowerBound : nil
        guard strikes.count >= 6, let end = r.samples.last?.time,
              let stand = piece(r, 0.5, strikes[0] - leadSeconds) else { return nil }
        let interval = (end - r.samples[0].time) / Double(r.samples.count - 1)
        let blend = max(1, Int((blendSeconds / interval).rounded()))
        var out: [MotionSample] = []
        // Each piece keeps its own clock (its lost packets stay gaps, which the pedometer
        // bridges), shifted to follow the session so far; it overlaps the session's last
        // `blend` rows, which are blended into its first ones.
        @discardableResult func append(_ rows: [MotionSample]) -> Double {
            let overlap = out.isEmpty ? 0 : min(blend, rows.count, out.count)
            let shift = (out.last.map { $0.time + interval } ?? 0) - rows[0].time - Double(overlap) * interval
            for i in 0..<overlap {
                let w = Double(i + 1) / Double(overlap + 1), k = out.count - overlap + i
                if let a = out[k].acceleration, let b = rows[i].acceleration {
                    out[k] = MotionSample(time: out[k].time, acceleration: a * (1 - w) + b * w, rotationRate: rows[i].rotationRate)
                }
            }
            for row in rows[overlap...] {
                out.append(MotionSample(time: row.time + shift, acceleration: row.acceleration, rotationRate: row.rotationRate))
            }
            return shift
        }
        func standing(_ seconds: Double) { append(stand.filter { $0.time >= stand[stand.count - 1].time - seconds }) }
        var time: Double { (out.last?.time ?? 0) + interval }
        let n = strikes.count
        let tailEnd = min(end, (nextStrike.map { $0 - nextStrikeMargin } ?? end), strikes[n - 1] + tailSeconds)
        var walks: [(steps: Int, span: Range<Double>, strikes: [Double])] = []
        var skipped = 0
        standing(pauses[0])
        for (index, wanted) in walkLengths.enumerated() {
            // Strikes 0..<c from the start, the joint at strike c − 1 ≡ strike j (same foot), then
            // j + 1..<n: c + n − 1 − j steps.
            let steps = (n - wanted) % 2 == 0 ? wanted : wanted + 1
            let c = steps / 2, j = c - 1 + n - steps
            guard steps <= n, c >= 1, j + 1 < n, j >= c - 1 else { skipped += 1; continue }
            let jointA = strikes[c - 1] + jointPhase * (strikes[c] - strikes[c - 1])
            let jointB = strikes[j] + jointPhase * (strikes[j + 1] - strikes[j])
            guard let first = piece(r, strikes[0] - leadSeconds, jointA), let last = piece(r, jointB, tailEnd) else {
                skipped += 1; continue
            }
            let start = time
            let firstShift = append(first), lastShift = append(last)
            let walked = strikes[0..<c].map { $0 + firstShift } + strikes[(j + 1)..<n].map { $0 + lastShift }
            walks.append((steps, start..<time, walked))
            standing(pauses[(index + 1) % pauses.count])
        }
        return Session(name: r.name, subject: subject, tuned: r.tuned, samples: out, capabilities: r.capabilities,
                       walks: walks, skipped: skipped)
    }

    static func run() {
        let directory = RealDevReport.directory()
        let recordings = RealDevReport.loadWalks(directory: directory)
        guard !recordings.isEmpty else {
            print("real-dev short walks: skipped, no gait_lowerback_* recordings at \(directory) (set IMU_REALDEV_DIR)")
            return
        }
        let sessions = recordings.compactMap { r in RealDevReport.subject(of: r.name).flatMap { session(r, subject: $0) } }
        print("== real-dev short walks at the lower back: each trial cut at its foot strikes into walks of \(walkLengths.map(String.init).joined(separator: ", ")) steps between stands, 100 Hz and averaged to 25 Hz (\(directory))")
        print("   split: tuned on subjects \(RealDevReport.tunedWalkSubjects.sorted().joined(separator: ", ")); the rest held out; scored per person")
        print("trial".padding(toLength: 44, withPad: " ", startingAt: 0), "part   truth  100 Hz  25 Hz   seed²  per walk at 100 Hz (counted/true)")
        struct Tally { var truth = 0, counted = 0, seed = 0 }
        var perSubject: [String: Tally] = [:]
        var tunedSubjects: Set<String> = []
        for s in sessions {
            let full = count(s.samples, capabilities: s.capabilities)
            let low = count(AccuracyReport.decimated(s.samples, rateHz: 25), capabilities: SensorCapabilities(accelerometer: true))
            let seed = SeedBaseline.count(s.samples)
            let times = RealDevReport.stepTimes(full.events)
            let perWalk = s.walks.map { w in "\(times.filter { w.span.contains($0) }.count)/\(w.steps)" }.joined(separator: " ")
            print(s.name.padding(toLength: 44, withPad: " ", startingAt: 0), s.tuned ? "tuned" : "held ",
                  String(format: "%6d %7d %6d %7d", s.trueSteps, full.snapshot.steps, low.snapshot.steps, seed), " ", perWalk,
                  s.skipped > 0 ? "(\(s.skipped) walk lengths not built: a gap over \(largestGap) s or too few strikes)" : "")
            var t = perSubject[s.subject, default: Tally()]
            t.truth += 2 * s.trueSteps; t.counted += full.snapshot.steps + low.snapshot.steps; t.seed += 2 * seed
            perSubject[s.subject] = t
            if s.tuned { tunedSubjects.insert(s.subject) }
        }
        func error(_ counted: Int, _ truth: Int) -> Double { Double(counted - truth) / Double(max(1, truth)) * 100 }
        for (subject, t) in perSubject.sorted(by: { $0.key < $1.key }) {
            print(String(format: "   %@ (%@): truth %d counted %d (%+.2f%%)  seed² %+.1f%%", subject, tunedSubjects.contains(subject) ? "tuned" : "held out",
                         t.truth, t.counted, error(t.counted, t.truth), error(t.seed, t.truth)))
        }
        func line(_ label: String, tuned: Bool) -> String {
            let part = perSubject.filter { tunedSubjects.contains($0.key) == tuned }.map(\.value)
            let mape = part.map { abs(error($0.counted, $0.truth)) }.reduce(0, +) / Double(max(1, part.count))
            let seedMape = part.map { abs(error($0.seed, $0.truth)) }.reduce(0, +) / Double(max(1, part.count))
            let truth = part.reduce(0) { $0 + $1.truth }, counted = part.reduce(0) { $0 + $1.counted }
            return String(format: "%@: %d persons, MAPE per person %.2f%%, truth %d counted %d (%+.2f%%)  | seed² MAPE %.1f%%  (target ±3%%)",
                          label, part.count, mape, truth, counted, error(counted, truth), seedMape)
        }
        Headline.say("real-dev short walks", line("held out", tuned: false))
        print(line("tuned part       ", tuned: true))
    }
}
