/// The built-in simulator: seeded 3-D scenarios with ground truth. See docs/ARCHITECTURE.md.
///
/// Layers of this module, one folder each:
/// - `Random/`: SplitMix64 and xoshiro256** with Box–Muller Gaussians (same seed → same samples).
/// - `Motion/`: quaternions, easing profiles, gait phase, headings, bus and elevator profiles,
///   device holdings and faces.
/// - `Sensors/`: the sensor error model (raw = S·M·truth + b + n, quantised and clipped), the
///   barometric formula with weather and door slams, the die thermometer.
/// - `Scenarios/`: segments, the named catalogue, the six-position session, text compositions.
/// - `Planning/`: a scenario with its random choices made (motion as a pure function of time) and
///   the ground truth derived from it.
/// - `Simulator` (streaming samples), `SimulatedSource` (paced playback as a `SampleSource`),
///   `SimulationBackend` + `SimulationSpec` (the `sim:` scheme).
///
/// Conventions: world frame x east, y north, z up; body frame x forward, y left, z up; device
/// frame per docs/CONTRACTS.md §1. Orientation q maps device → world; the gyroscope reads the
/// body-frame rate of q, the accelerometer q⁻¹·(a + 1 g·ẑ) in g.
@_exported import IMUCore
