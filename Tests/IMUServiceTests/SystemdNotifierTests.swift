import Testing
@testable import IMUService

/// What imu-stepd sends to systemd's notify socket. systemd splits the state at newlines and
/// takes each line as one VARIABLE=VALUE (sd_notify(3)); `make test-systemd` checks the rest
/// under a real systemd (READY=1 ends `activating`, WATCHDOG=1 keeps the service alive).
@Suite struct SystemdNotifierTests {
    @Test func readyAndStatusAreTwoLines() {
        #expect(SystemdNotifier.message(["READY=1", "STATUS=counting steps"]).split(separator: "\n")
            == ["READY=1", "STATUS=counting steps"])
    }

    @Test func aNewlineInsideAStatusStaysOnItsLine() {
        let lines = SystemdNotifier.message(["STATUS=sensor lost\nREADY=1"]).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("STATUS=sensor lost") == true)
    }
}

/// The daemon's log lines: one line each, escaped, and whole (they were cut at 200 characters,
/// which dropped the fix at the end of a long sensor message).
@Suite struct ServiceLogLineTests {
    @Test func aLongMessageKeepsItsFixAndStaysOnOneLine() {
        let log = ServiceLog(environment: ["IMUKIT_LOG_STDERR": "1"])
        let text = "sensor lost: " + String(repeating: "reason ", count: 40) + "(fix: sudo make install-udev)\n\u{1B}[2J"
        let line = log.standardErrorLine(.warning, text)
        #expect(line.hasPrefix("imu-stepd: warning: sensor lost: "))
        #expect(line.contains(#"(fix: sudo make install-udev)\n\x1B[2J"#))
        #expect(line.filter { $0 == "\n" }.count == 1 && line.hasSuffix("\n"))
    }
}
