import Foundation
import IMUCore
import OffPool
import Testing

/// A DNS server that never answers, for real: imu-info asks gpsd at a name in a private user,
/// mount and network namespace (`unshare -rmn`) whose /etc/resolv.conf names 127.0.0.1, where a
/// UDP socket takes every query and answers none. Nothing leaves this machine (the namespace has
/// its own loopback and no other interface). getaddrinfo waited resolv.conf's `timeout:30
/// attempts:1` (its A and AAAA queries go together): 30 s before imu-info said anything (10 s
/// measured with `timeout:10`, the same script and the previous imu-info). The lookup has the
/// connection's deadline now (`ConnectOutcome.timeout`, 3 s; sweep29).
@Suite(.offPool) struct DNSDeadlineTests {
    static let python = "/usr/bin/python3"

    /// Why the test cannot run here (no unshare, no user namespaces, no python3), or nil.
    static func skipReason() -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return "no /usr/bin/unshare" }
        guard FileManager.default.isExecutableFile(atPath: python) else { return "no \(python) for the silent DNS server" }
        let probe = try? ToolRunner.run(executable: "/usr/bin/unshare", ["-rmn", "/bin/true"], timeout: 10)
        guard probe?.status == 0 else { return "unshare -rmn is not allowed here (\(probe?.stderr ?? "no result"))" }
        return nil
    }

    @Test(.timeLimitAfterGate(.seconds(120))) func aDNSServerThatNeverAnswersIsSaidWithinTheDeadline() throws {
        if let reason = Self.skipReason() { print("DNSDeadlineTests: skipped, \(reason)"); return }
        let resolv = try ToolRunner.temporaryFile("resolv.conf", "nameserver 127.0.0.1\noptions timeout:30 attempts:1\n")
        // The silent server: bound before the tool starts (it prints once bound), then never reads.
        let server = "import socket, sys, time\n"
            + "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(('127.0.0.1', 53))\n"
            + "print('bound', flush=True); time.sleep(600)\n"
        let script = """
            set -e
            ip link set lo up
            mount --bind '\(resolv)' /etc/resolv.conf
            \(Self.python) -c "$SERVER" > "$READY" &
            for i in $(seq 50); do grep -q bound "$READY" && break; sleep 0.1; done
            start=$(date +%s.%N)
            '\(ToolRunner.path("imu-info"))' --json --gpsd gpsd.imukit-test.example:2947 || true
            end=$(date +%s.%N)
            echo "took $(echo "$end - $start" | bc)" >&2
            kill $!
            """
        let ready = try ToolRunner.temporaryFile("ready", "")
        let r = try ToolRunner.run(executable: "/usr/bin/unshare", ["-rmn", "/bin/sh", "-c", script],
                                   environment: ["SERVER": server, "READY": ready], timeout: 90)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let took = try #require(r.stderr.split(separator: "\n").last { $0.hasPrefix("took ") }.flatMap { Double($0.dropFirst(5)) }, "\(r.stderr)")
        // The 3 s lookup deadline, imu-info's start and its inventory: far below the resolver's 30 s.
        #expect(took < ConnectOutcome.timeout + 5, "imu-info took \(took) s")
        let gps = try #require(try jsonObjects(r).first { $0["type"] as? String == "gps" }, "\(r.stdout)")
        #expect(gps["ground_speed_available"] as? Bool == false)
        let problem = gps["problem"] as? String ?? ""
        #expect(problem == "gpsd at gpsd.imukit-test.example:2947 is not reachable (the lookup of gpsd.imukit-test.example found no address "
                + "within 3 s: the resolver did not answer (DNS: the nameserver lines of /etc/resolv.conf); fix: check DNS, or give the "
                + "host's address instead of its name)", "\(r.stdout)")
    }
}
