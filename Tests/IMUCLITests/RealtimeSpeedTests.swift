import Testing
import IMUCore
@testable import IMUCLI

/// `--replay FILE --realtime --speed max`: a pace and no pace at once. It read the file at once
/// without a word about `--realtime`; it is refused as bad usage (exit 2, docs/CONTRACTS.md §4).
@Suite struct RealtimeSpeedTests {
    static let spec = CommandSpec(name: "imu-test", summary: "test", usage: ["--replay [--realtime]"],
                                  options: SourceSelection.options, examples: [("imu-test --replay x.csv", "example")])

    static func request(_ arguments: [String]) throws -> SourceRequest {
        try SourceSelection.request(from: ArgumentParser.parse(arguments, spec: spec), fallbackToSimulation: false)
    }

    @Test func realtimeWithSpeedMaxIsRefusedNamingBoth() throws {
        for arguments in [["--replay", "x.csv", "--realtime", "--speed", "max"], ["--speed", "MAX", "-r", "x.csv", "--realtime"]] {
            let error = #expect(throws: UsageError.self) { try Self.request(arguments) }
            #expect(error?.message.contains("--realtime") == true && error?.message.contains("--speed max") == true, "\(String(describing: error))")
            #expect(error?.fix?.contains("leave out --realtime") == true && error?.fix?.contains("--speed a number") == true)
            #expect(error?.exitStatus == .usage)
        }
    }

    /// The pairs that still mean one thing keep working.
    @Test func realtimeWithANumberOrAloneIsAPace() throws {
        #expect(try Self.request(["--replay", "x.csv", "--realtime", "--speed", "10"]) == .replay(path: "x.csv", speed: 10))
        #expect(try Self.request(["--replay", "x.csv", "--realtime"]) == .replay(path: "x.csv", speed: 1))
        #expect(try Self.request(["--replay", "x.csv", "--speed", "max"]) == .replay(path: "x.csv", speed: .infinity))
        #expect(try Self.request(["--replay", "x.csv"]) == .replay(path: "x.csv", speed: .infinity))
    }
}
