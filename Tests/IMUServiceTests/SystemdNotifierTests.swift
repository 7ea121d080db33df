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
