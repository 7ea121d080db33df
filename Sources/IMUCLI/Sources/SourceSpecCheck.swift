import IMUSensors
import IMUSimulation

extension SourceSelection {
    /// Checks the text of a `--source` spec or a scenario name without opening anything, throwing
    /// the error opening it would throw. imu-stepd checks its `source =` and `simulate =` settings
    /// so when it reads its config: a typo there was found only once the service was up, then
    /// reported as "sensor lost" and retried.
    public static func checkSyntax(_ request: SourceRequest) throws {
        switch request {
        case let .simulate(name, _):
            _ = try Scenario.resolve(name)
        case let .spec(spec):
            let (scheme, rest) = try split(spec, named: "a source")
            switch scheme {
            case "i2c": _ = try I2CSpec(parsing: rest)
            case "iio": _ = try IIOSourceSpec(parsing: rest)
            case "sim": _ = try Scenario.resolve(rest)
            default: throw UsageError("unknown source type '\(scheme):'; known: i2c:, iio:, sim:", command: commandName)
            }
        case .replay, .automatic:
            return
        }
    }
}
