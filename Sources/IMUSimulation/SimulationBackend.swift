/// The `sim:` scheme: opens the built-in simulator by scenario name, e.g. `sim:walk` or
/// `sim:walk?speed=2&seed=3&rate=200`. It is never discovered as hardware: `openDefault` returns nil
/// and `inventory()` lists nothing.
///
/// Spec parameters (all optional): speed (× real time; inf or 0 = as fast as possible), seed, rate (Hz),
/// baro (Hz, or off), gyro (on/off), temp (on/off), holding (face-up, hand, front-pocket, back-pocket,
/// bag, armband), ideal (on = no sensor errors, jitter or weather; later parameters still apply),
/// jitter (s), drift (hPa/h), loop (on/off), start (s),
/// fail (s: the sensor is lost after this much simulated time, for testing exit status 1).
/// The scenario may also be a composition (see `Scenario.resolve`), e.g. `sim:still:5,walk:60/pocket?seed=2`.
public struct SimulationBackend: SensorBackend {
    public init() {}

    public var scheme: String { "sim" }

    public func inventory() -> [InventoryItem] { [] }

    public func openDefault(options: SourceOptions) throws -> (any SampleSource)? { nil }

    public func checkSpec(_ spec: String) throws { _ = try SimulationSpec(spec) }

    public func open(spec: String, options: SourceOptions) throws -> any SampleSource {
        let request = try SimulationSpec(spec, rateHz: options.rateHz)
        return SimulatedSource(scenario: request.scenario, options: request.options, speed: request.speed, loop: request.loop,
                               failAfter: request.failAfter)
    }
}
