import Foundation
import IMUCore
import Pedometer

/// An independent estimate of how many step cycles a recording holds, to judge its reference
/// count rather than the pedometer: the acceleration magnitude, band-passed around the
/// recording's dominant step frequency, crosses zero upwards once per step. Crossings are
/// counted only where the signal moves at all (0.5 s RMS above 0.05 g, standing is below 0.03).
///
/// It shares no code with the pedometer. It also counts the phone being handled (pockets and
/// purses read a few percent high), so it is a sanity check, not a second truth: a reference
/// well *above* it claims steps the phone never felt.
enum ReferenceCheck {
    /// Analysis rate, Hz: every development recording runs at 100 Hz or faster.
    static let rateHz = 100.0
    /// Step frequencies searched for the dominant one, Hz (walking cadence 1.3 to 2.6 steps/s).
    static let searchBand = 1.3...2.6
    /// Band-pass quality factor: bandwidth about half the step frequency (±25%).
    static let quality = 2.0
    /// Motion below this RMS (g) is not walking; a phone lying or held still reads under 0.03 g.
    static let movingRMS = 0.05

    struct Result {
        var cycles: Int
        /// The dominant step frequency the band-pass was centred on, Hz (steps/s).
        var frequency: Double
        /// Seconds from the first to the last counted cycle: the stretch in which the phone felt
        /// steps. A reference of N steps needs (N − 1) / `span` steps/s throughout it.
        var span: Double
    }

    static func stepCycles(_ samples: [MotionSample]) -> Result? {
        stepCycles(samples, within: nil)
    }

    /// The step cycles inside `spans` only (s, on the samples' clock), each widened by half a
    /// step period either side (a span from the first to the last counted step holds one cycle
    /// fewer than steps). With the spans of the counter's own walks, this separates how the
    /// counter reads the rhythm (its count against these cycles) from where it says a walk
    /// starts and stops and from the reference itself (these cycles against the reference).
    /// Handling outside the walks no longer counts here, so pockets no longer read high. Inside a
    /// span every crossing counts: the span is the walk, and the moving gate (`movingRMS`) drops
    /// parts of a soft walk (the Samsung in-hand walk of jamie strikes about 0.15 g).
    static func stepCycles(_ samples: [MotionSample], within spans: [ClosedRange<Double>]?) -> Result? {
        let x = resampledMagnitude(samples)
        guard x.count > Int(10 * rateHz), let start = samples.first?.time else { return nil }
        let f0 = dominantFrequency(x)
        var y = bandPass(x, frequency: f0)
        y.reverse()
        y = bandPass(y, frequency: f0)   // forward and backward: no phase shift
        y.reverse()
        let half = Int(0.25 * rateHz)
        var squares = [Double](repeating: 0, count: x.count + 1)   // prefix sums of x²
        for i in x.indices { squares[i + 1] = squares[i] + x[i] * x[i] }
        // Grid index ranges of the spans (the grid starts at the first sample).
        let widen = 0.5 / f0
        let ranges = spans.map { spans in
            spans.map { Int(((($0.lowerBound - widen) - start) * rateHz).rounded(.down))...Int(((($0.upperBound + widen) - start) * rateHz).rounded(.up)) }
        }
        var cycles = 0
        var first: Int?, last = 0   // grid indices of the first and last counted crossing
        for i in 1..<y.count where y[i - 1] < 0 && y[i] >= 0 {
            if let ranges {
                guard ranges.contains(where: { $0.contains(i) }) else { continue }
            } else {
                let lo = max(0, i - half), hi = min(x.count, i + half)
                guard (squares[hi] - squares[lo]) / Double(hi - lo) > movingRMS * movingRMS else { continue }
            }
            cycles += 1
            first = first ?? i
            last = i
        }
        return Result(cycles: cycles, frequency: f0, span: Double(last - (first ?? last)) / rateHz)
    }

    /// From the first to the last step of each walk in `events` (a walk ends at a pause).
    static func walkSpans(_ events: [PedometerEvent]) -> [ClosedRange<Double>] {
        var spans: [ClosedRange<Double>] = []
        var first: Double?, last: Double?
        for event in events {
            switch event {
            case .step(let t):
                first = first ?? t
                last = t
            case .pause:
                if let a = first, let b = last { spans.append(a...b) }
                first = nil; last = nil
            default:
                break
            }
        }
        if let a = first, let b = last { spans.append(a...b) }
        return spans
    }

    /// |a| (g) linearly interpolated onto a `rateHz` grid, mean removed.
    private static func resampledMagnitude(_ samples: [MotionSample]) -> [Double] {
        let points = samples.compactMap { s in s.acceleration.map { (s.time, ($0 * $0).sum().squareRoot()) } }
        guard let first = points.first, let last = points.last, last.0 > first.0 else { return [] }
        var out: [Double] = []
        out.reserveCapacity(Int((last.0 - first.0) * rateHz) + 1)
        var j = 0
        var t = first.0
        while t <= last.0 {
            while j + 1 < points.count - 1, points[j + 1].0 <= t { j += 1 }
            let (t0, v0) = points[j], (t1, v1) = points[min(j + 1, points.count - 1)]
            out.append(t1 > t0 ? v0 + (v1 - v0) * (t - t0) / (t1 - t0) : v0)
            t += 1 / rateHz
        }
        let mean = out.reduce(0, +) / Double(out.count)
        return out.map { $0 - mean }
    }

    /// The frequency in `searchBand` with the most power (Goertzel scan, 0.005 Hz steps).
    private static func dominantFrequency(_ x: [Double]) -> Double {
        var best = searchBand.lowerBound, bestPower = -1.0
        var f = searchBand.lowerBound
        while f <= searchBand.upperBound {
            let k = 2 * cos(2 * Double.pi * f / rateHz)
            var s1 = 0.0, s2 = 0.0
            for v in x { let s0 = v + k * s1 - s2; s2 = s1; s1 = s0 }
            let power = s1 * s1 + s2 * s2 - k * s1 * s2
            if power > bestPower { bestPower = power; best = f }
            f += 0.005
        }
        return best
    }

    /// Second-order band-pass at `frequency` (R. Bristow-Johnson's "Audio EQ Cookbook",
    /// constant 0 dB peak gain).
    private static func bandPass(_ x: [Double], frequency: Double) -> [Double] {
        let w0 = 2 * Double.pi * frequency / rateHz
        let alpha = sin(w0) / (2 * quality)
        let a0 = 1 + alpha
        let b0 = alpha / a0, b2 = -alpha / a0, a1 = -2 * cos(w0) / a0, a2 = (1 - alpha) / a0
        var y = [Double](repeating: 0, count: x.count)
        var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
        for i in x.indices {
            let v = b0 * x[i] + b2 * x2 - a1 * y1 - a2 * y2
            x2 = x1; x1 = x[i]; y2 = y1; y1 = v
            y[i] = v
        }
        return y
    }
}
