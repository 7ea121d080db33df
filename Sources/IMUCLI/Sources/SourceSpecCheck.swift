import IMUSimulation

extension SourceSelection {
    /// Checks the text of a `--source` spec or a scenario name without opening anything, throwing
    /// the error opening it would throw. imu-stepd checks its `source =` and `simulate =` settings
    /// so when it reads its config: a typo there was found only once the service was up, then
    /// reported as "sensor lost" and retried. Each backend checks its own specs (`checkSpec`), so
    /// the schemes and their syntax are those opening uses.
    public static func checkSyntax(_ request: SourceRequest) throws {
        switch request {
        case let .simulate(name, _):
            _ = try Scenario.resolve(name)
        case let .spec(spec):
            let (scheme, rest) = try split(spec, named: "a source")
            try backend(for: scheme, among: CLIBackends.hardware).checkSpec(rest)
        case .replay, .automatic:
            return
        }
    }
}
