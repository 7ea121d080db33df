import Foundation
import OffPool
import Testing

/// Every method of imu-stepd's object, called with bad arguments on a real private dbus-daemon
/// (busctl, as any program would): each gets a D-Bus error that names the argument and what it
/// takes, escaped; nothing answers with an empty or zero result, and the daemon lives on.
@Suite(.offPool, .serialized) struct BusArgumentsSweep25Tests {
    static let service = ["io.github.imukit.StepService1", "/io/github/imukit/StepService1"]

    /// `busctl call -- …` (a negative number is not taken for an option).
    func call(_ bus: PrivateBus, _ interface: String, _ member: String, _ signature: String, _ args: [String]) throws -> Run {
        try bus.busctl(["call", "--"] + Self.service + [interface, member] + (signature.isEmpty ? [] : [signature] + args))
    }

    @Test func badArgumentsAreNamedAndRefused() throws {
        guard let bus = try PrivateBus.start() else { print("skipped: dbus-daemon is not installed"); return }
        let daemon = try DaemonProcess(bus: bus, stateDirectory: try scratch(), settings: ["simulate = walk:600", "speed = 10"])
        defer { withExtendedLifetime(daemon) {} }
        #expect(PrivateBus.waitFor(20) { (try? bus.property("SensorState"))?.contains("running") == true }, "\(daemon.log)")
        let steps = "io.github.imukit.StepService1", props = "org.freedesktop.DBus.Properties"
        let now = Int64(Date().timeIntervalSince1970) * 1_000_000
        let long = String(repeating: "Z", count: 100_000)
        let cases: [(String, String, String, [String], String)] = [
            // Properties
            (props, "Get", "ss", ["org.example.Other", "TodaySteps"], "Get's interface_name 'org.example.Other' is not an interface with properties here: give io.github.imukit.StepService1"),
            (props, "Get", "ss", [steps, "Bad\u{1b}[31mName"], "property_name 'Bad\\x1B[31mName' is no property of io.github.imukit.StepService1"),
            (props, "Get", "s", [steps], "Get takes (ss): interface_name, property_name"),
            (props, "GetAll", "s", ["org.example.Other"], "GetAll's interface_name 'org.example.Other' is not an interface with properties here"),
            (props, "GetAll", "x", ["1"], "GetAll takes (s): interface_name"),
            // Queries
            (steps, "QueryTotals", "xx", ["-1", "\(now)"], "from_usec (-1) is before 1970-01-01"),
            (steps, "QueryTotals", "xx", ["\(now)", "\(now)"], "to_usec (\(now)) does not come after from_usec (\(now)): the interval must end after it starts"),
            (steps, "QueryTotals", "s", ["yesterday"], "QueryTotals takes (xx): from_usec and to_usec, µs since 1970 UTC"),
            (steps, "QueryActivities", "xx", ["\(now)", "0"], "to_usec (0) does not come after from_usec (\(now))"),
            (steps, "QueryActivities", "xxs", ["0", "\(now)", ""], "QueryActivities takes (xx): from_usec and to_usec"),
            (steps, "QueryDays", "xxs", ["-9223372036854775808", "\(now)", ""], "from_usec (-9223372036854775808) is before 1970-01-01"),
            (steps, "QueryDays", "xxs", ["0", "\(now)", ""], "from_usec to to_usec spans"),
            (steps, "QueryDays", "xxs", ["\(now - 1_000_000)", "\(now)", "Mars/Olympus\u{7}\n"], "unknown time_zone 'Mars/Olympus\\x07\\n': give an IANA name such as Europe/Berlin"),
            (steps, "QueryDays", "xxs", ["\(now - 1_000_000)", "\(now)", long], "unknown time_zone '\(String(repeating: "Z", count: 200))…'"),
            (steps, "QueryDays", "xx", ["0", "\(now)"], "QueryDays takes (xxs): from_usec and to_usec, µs since 1970 UTC, and time_zone"),
            ("org.freedesktop.DBus.Introspectable", "Introspect", "s", ["xml"], "Introspect takes no arguments, got (s)"),
            // Controls take nothing (the call is refused before anything is paused).
            (steps, "Pause", "s", ["now"], "Pause takes no arguments, got (s)"),
            (steps, "Reset", "x", ["1"], "Reset takes no arguments, got (x)"),
        ]
        for (interface, member, signature, args, message) in cases {
            let r = try call(bus, interface, member, signature, args)
            #expect(r.status != 0 && r.stderr.contains(message), "\(member) \(signature) \(args.map { $0.prefix(40) }): \(r.stderr.prefix(400))")
            #expect(!r.stderr.contains("\u{1b}") && !r.stderr.contains("\u{7}"), "\(member): control characters reached the terminal")
            #expect(r.stderr.count < 2_000, "\(member): a 100 000-character argument came back whole")
        }
        // What is allowed still answers: "" is every interface; a far-off end is answered, not trapped on.
        let all = try call(bus, props, "GetAll", "s", [""])
        #expect(all.status == 0 && all.stdout.contains("TodaySteps"), "\(all.stderr)")
        let far = try call(bus, steps, "QueryTotals", "xx", ["0", "\(Int64.max)"])
        #expect(far.status == 0 && far.stdout.hasPrefix("(xxxdxxd) 0 9223372036854775807 "), "\(far.stdout) \(far.stderr)")
        let farActivities = try call(bus, steps, "QueryActivities", "xx", ["0", "\(Int64.max)"])
        #expect(farActivities.status == 0, "\(farActivities.stderr)")
        #expect(busValue(try bus.property("Paused")) == "false", "a refused Pause paused nothing")
        #expect(busValue(try bus.property("SensorState")) == "running", "the daemon lives on: \(daemon.log)")
    }
}
