/// One labelled simulated recording: what to generate, and under which sensor conditions.
public struct SimulatedCase: Sendable {
    /// Short label for reports, e.g. "walk front-pocket 50 Hz".
    public var name: String
    public var scenario: Scenario
    public var options: SimulationOptions

    public init(name: String, scenario: Scenario, options: SimulationOptions) {
        self.name = name
        self.scenario = scenario
        self.options = options
    }
}

/// A standard set of simulated recordings for accuracy benchmarks: every gait in every holding,
/// the synthetic days, the non-walking traps (bus, wave, elevator), and awkward sensor conditions
/// (25 Hz, 1 kHz, accelerometer only, heavy jitter, gaps). Generate each with `Simulator.generate`.
public enum SimulationCorpus {
    public static func standard(seeds: [UInt64] = [1, 2, 3]) -> [SimulatedCase] {
        var cases: [SimulatedCase] = []
        for seed in seeds {
            func options(_ change: (inout SimulationOptions) -> Void = { _ in }) -> SimulationOptions {
                var o = SimulationOptions()
                o.seed = seed
                change(&o)
                return o
            }
            let holdings: [DeviceHolding] = [.inHand, .frontPocket, .backPocket, .bag, .armband]
            for holding in holdings {
                for gait in [Segment.Kind.stroll, .walk, .run] {
                    let scenario = Scenario(name: Segment(gait).kindName, segments: [
                        Segment(.still, seconds: 5, holding: holding), Segment(gait, seconds: 60, holding: holding),
                        Segment(.still, seconds: 5, holding: holding)])
                    cases.append(SimulatedCase(name: "\(scenario.name) \(holding.name ?? "custom") seed \(seed)",
                                               scenario: scenario, options: options()))
                }
            }
            for name in ["day", "day-extended", "demo", "commute", "stairs-up", "stairs-down", "elevator", "bus", "wave", "still"] {
                cases.append(SimulatedCase(name: "\(name) seed \(seed)", scenario: Scenario.named(name)!, options: options()))
            }
            let day = Scenario.named("day")!
            cases.append(SimulatedCase(name: "day 25 Hz accelerometer only seed \(seed)", scenario: day,
                                       options: options { $0.sampleRateHz = 25; $0.includeGyroscope = false; $0.barometerRateHz = nil }))
            cases.append(SimulatedCase(name: "day 1 kHz seed \(seed)", scenario: day, options: options { $0.sampleRateHz = 1000 }))
            cases.append(SimulatedCase(name: "day jitter 3 ms, gaps seed \(seed)", scenario: day,
                                       options: options { $0.timestampJitterSeconds = 0.003; $0.gaps = [50...51, 250...250.4] }))
        }
        return cases
    }
}
