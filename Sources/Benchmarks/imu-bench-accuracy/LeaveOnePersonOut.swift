import Foundation
@_spi(Tuning) import Pedometer

/// Leave one person out: for each person, the grid point that reads best on everyone else's
/// walks is chosen, and that person's walks are reported with it. The mean over every walk of
/// those held-out errors is a figure on data no threshold *of the grid* saw; the thresholds
/// outside the grid keep their shipped values, set on all development data (said beside it).
enum LeaveOnePersonOut {
    /// The grid "edges": the three thresholds that decide how much of a walk's soft first and
    /// last steps is counted (`StepTuning`). Each axis holds the shipped value and the neighbours
    /// measured when it was chosen (`StepSettings`' comments): the edge energy 0.15 / 0.18 / 0.25
    /// of the walk's, the stride correlation 0.3 / 0.4 / 0.5 at the edges, a first or last step
    /// 0.6 / 0.8 / 1.0 × the walk's RMS amplitude.
    static let edgesGrid: [StepTuning] = {
        var grid: [StepTuning] = []
        for envelope in [0.15, 0.18, 0.25] {
            for correlation in [0.3, 0.4, 0.5] {
                for height in [0.6, 0.8, 1.0] {
                    grid.append(StepTuning(envelopeFraction: envelope, edgeCorrelation: correlation, heightFraction: height))
                }
            }
        }
        return grid
    }()

    struct Walk {
        var name: String
        var person: String
        var samples: [MotionSample]
        var capabilities: SensorCapabilities
        var trueSteps: Int
    }

    /// Prints the per-person choice and the leave-one-person-out MAPE beside the all-data figure
    /// (shipped values), the seed's and the step-cycle check's. Returns the LOPO MAPE, %.
    @discardableResult
    static func run(title: String, _ walks: [Walk], grid: [StepTuning] = edgesGrid, gridName: String = "edges") -> Double? {
        let people = Array(Set(walks.map(\.person))).sorted()
        guard people.count > 1 else { print("leave one person out (\(title)): needs two people or more"); return nil }
        // Steps of every walk at every grid point, and their |error| %.
        let counts: [[Int]] = walks.map { w in
            grid.map { count(w.samples, capabilities: w.capabilities, tuning: $0).snapshot.steps }
        }
        let errors: [[Double]] = zip(walks, counts).map { w, row in
            row.map { abs(Double($0 - w.trueSteps)) / Double(w.trueSteps) * 100 }
        }
        func mean(_ xs: [Double]) -> Double { xs.isEmpty ? 0 : xs.reduce(0, +) / Double(xs.count) }
        print("== leave one person out: \(title), grid \"\(gridName)\" (\(grid.count) points: edge energy × edge stride correlation × first/last step height)")
        print("held out".padding(toLength: 10, withPad: " ", startingAt: 0), "walks  chosen on the other people's walks".padding(toLength: 62, withPad: " ", startingAt: 0),
              "held-out MAPE  shipped values")
        let shipped = grid.firstIndex(of: .shipped)
        var heldOut = [Double](repeating: 0, count: walks.count)
        var heldOutSteps = [Int](repeating: 0, count: walks.count)
        for person in people {
            let others = walks.indices.filter { walks[$0].person != person }
            let mine = walks.indices.filter { walks[$0].person == person }
            // Best on the others; ties go to the earlier grid point (the grid order is fixed).
            var best = 0
            var bestError = Double.infinity
            for g in grid.indices {
                let e = mean(others.map { errors[$0][g] })
                if e < bestError - 1e-9 { best = g; bestError = e }
            }
            for i in mine { heldOut[i] = errors[i][best]; heldOutSteps[i] = counts[i][best] }
            let shippedText = shipped.map { g in String(format: "%.2f%%", mean(mine.map { errors[$0][g] })) } ?? "-"
            print(person.padding(toLength: 10, withPad: " ", startingAt: 0), String(format: "%5d ", mine.count),
                  grid[best].description.padding(toLength: 62, withPad: " ", startingAt: 0),
                  String(format: "%6.2f%%       ", mean(mine.map { heldOut[$0] })), shippedText)
        }
        let lopo = mean(heldOut)
        // Which walks carry the held-out figure: its sum of errors (a MAPE target of M % allows
        // M points per walk: oxford's 1.0 %, 22 points) and the largest held-out errors, signed,
        // each walk counted with its fold's choice (docs/accuracy.md, session 25).
        let largest = walks.indices.sorted { heldOut[$0] > heldOut[$1] }.prefix(6)
            .map { String(format: "%@ %d of %d (%+.2f%%)", walks[$0].name, heldOutSteps[$0], walks[$0].trueSteps,
                          Double(heldOutSteps[$0] - walks[$0].trueSteps) / Double(walks[$0].trueSteps) * 100) }
        print(String(format: "held out, sum of |error| %.1f points over %d walks; largest, counted with their fold's choice: %@",
                     heldOut.reduce(0, +), walks.count, largest.joined(separator: ", ")))
        var seed: [Double] = [], cycles: [Double] = [], all: [Double] = []
        for w in walks {
            seed.append(abs(Double(SeedBaseline.count(w.samples) - w.trueSteps)) / Double(w.trueSteps) * 100)
            if let c = ReferenceCheck.stepCycles(w.samples)?.cycles { cycles.append(abs(Double(c - w.trueSteps)) / Double(w.trueSteps) * 100) }
            all.append(abs(Double(count(w.samples, capabilities: w.capabilities).snapshot.steps - w.trueSteps)) / Double(w.trueSteps) * 100)
        }
        Headline.say(title, String(format: "leave one person out (%d people, %d walks): MAPE %.2f%%  | all walks, shipped values (tuned on all): %.2f%%  | seed² %.2f%%  | step cycles¹ vs the reference %.2f%%",
                     people.count, walks.count, lopo, mean(all), mean(seed), mean(cycles)))
        print("   thresholds outside the grid keep their shipped values, which were set on the development data (this set included)")
        return lopo
    }
}
