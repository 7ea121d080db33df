import Foundation
import GPSFake
import OffPool
import LoopbackListener
import Testing

/// Defects the session-4 bad-input audit left open, each tried on the built tools as a process.
@Suite(.offPool) struct AuditLeftoverTests {
    /// `--remember` on a full disk said "cannot write …: No space left on device" and gave no fix.
    /// A 64 KiB tmpfs, filled, is mounted in a private mount namespace (`unshare -m`), so nothing
    /// is left mounted when the test ends; it needs root.
    @Test func rememberOnAFullDiskNamesTheFileAndTheFix() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
            print("skipped: mounting a small tmpfs to fill needs root and unshare(1)"); return
        }
        let dir = try scratchDirectory()
        let r = try ShellRunner.run("""
            mkdir -p cfg && unshare -m sh -c '
              mount -t tmpfs -o size=64k tmpfs cfg || exit 77
              mkdir cfg/imukit && dd if=/dev/zero of=cfg/fill bs=4k 2>/dev/null
              XDG_CONFIG_HOME=$PWD/cfg "$BIN/imu-steps" --simulate walk:5 --speed max --json --height 1.8 --remember >/dev/null
              echo "status=$?" >&2
              test ! -e cfg/imukit/profile.json && echo "no profile" >&2'
            """, directory: dir)
        if r.stderr.contains("exit 77") || r.status == 77 { print("skipped: tmpfs cannot be mounted here: \(r.stderr)"); return }
        #expect(r.stderr.contains("status=1"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("cfg/imukit/profile.json: No space left on device"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: free some space on the file system of \(dir)/cfg/imukit"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("no profile"), "stderr: \(r.stderr)")
    }

    /// imu-plot and imu-calibrate said "-:1: missing header line" for an empty or closed standard
    /// input; imu-steps named a closed one already.
    @Test(arguments: [("imu-plot", "--replay", "-o x.svg --replay"), ("imu-calibrate", "--from-recording", "-6 --from-recording")])
    func anEmptyOrClosedStandardInputIsNamed(_ tool: String, _ option: String, _ arguments: String) throws {
        let dir = try scratchDirectory()
        let closed = try ShellRunner.run("\"$BIN/\(tool)\" \(arguments) - <&-", directory: dir)
        #expect(closed.status == 2, "stderr: \(closed.stderr)")
        #expect(closed.stderr.contains("\(option) -: standard input is closed"), "stderr: \(closed.stderr)")
        #expect(closed.stderr.contains("fix: pipe or redirect a recording into it"), "stderr: \(closed.stderr)")
        let empty = try ShellRunner.run("\"$BIN/\(tool)\" \(arguments) - < /dev/null", directory: dir)
        #expect(empty.status == 2, "stderr: \(empty.stderr)")
        #expect(empty.stderr.contains("standard input: no recording came"), "stderr: \(empty.stderr)")
        #expect(empty.stderr.contains("fix: pipe or redirect a recording into it"), "stderr: \(empty.stderr)")
        #expect(!empty.stderr.contains("-:1"), "stderr: \(empty.stderr)")
    }

    /// `walk:10,,run:5` and a trailing comma ran the items that were there, without a word.
    @Test(arguments: [("walk:10,,run:5", "item 2 of 3"), ("walk:10,", "item 2 of 2"), (",walk:10", "item 1 of 2"),
                      ("walk:10, ,run:5", "item 2 of 3")])
    func anEmptyCompositionItemIsAUsageError(_ scenario: String, _ position: String) throws {
        for tool in [["imu-steps", "--json"], ["imu-plot", "-o", "-"], ["imu-record", "-d", "1", "-o", "-"]] {
            let r = try ToolRunner.run(tool[0], ["--simulate", scenario] + tool.dropFirst(), timeout: 30)
            #expect(r.status == 2, "\(tool[0]) \(scenario): \(r.stderr)")
            #expect(r.stderr.contains("\(position) in the composition '\(scenario)' is empty"), "\(tool[0]): \(r.stderr)")
            #expect(r.stderr.contains("fix: remove the extra comma"), "\(tool[0]): \(r.stderr)")
            #expect(r.stdout.isEmpty, "\(tool[0]) wrote output for a refused composition")
        }
    }

    /// "recorded 1 samples in 0.0 s".
    @Test func oneSampleIsSingular() throws {
        let path = try ToolRunner.temporaryFile("one.csv", "t,ax,ay,az\n1,0,0,1\n")
        let r = try ToolRunner.run("imu-record", ["--replay", path, "-o", path + ".out.csv"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("recorded 1 sample in"), "stderr: \(r.stderr)")
        let two = try ToolRunner.temporaryFile("two.csv", "t,ax,ay,az\n1,0,0,1\n2,0,0,1\n")
        let s = try ToolRunner.run("imu-record", ["--replay", two, "-o", two + ".out.csv"])
        #expect(s.stderr.contains("recorded 2 samples in"), "stderr: \(s.stderr)")
    }
}

/// `--gpsd HOST:PORT` that cannot be reached said "can't connect to host/port pair" whatever
/// happened, and after libgps' blocking connect (about 2 minutes for an address that never answers).
@Suite(.offPool) struct GPSConnectOutcomeTests {
    /// A listening socket on 127.0.0.1 whose accept queue (backlog 0: one connection) is full, so
    /// the kernel drops the next SYN: a connect to it waits as for a host that never answers.
    final class SilentListener {
        private let listener: LoopbackListener
        private let filler: Int32
        var port: Int { listener.port }
        init?() {
            guard let listener = LoopbackListener(backlog: 0) else { return nil }
            self.listener = listener
            filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = LoopbackListener.loopback(port: listener.port)
            let connected = filler >= 0 && withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard connected else { return nil }
        }
        deinit { close(filler) }
    }

    @Test func aRefusedConnectionSaysRefused() throws {
        let port = GPSFake.freePort()
        let r = try ToolRunner.run("imu-steps", ["--simulate", "walk:5", "--speed", "10", "--gpsd", "127.0.0.1:\(port)", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("gpsd at 127.0.0.1:\(port) is not reachable (connection refused: nothing listens on that port)"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("systemctl start gpsd"), "stderr: \(r.stderr)")
    }

    @Test func anAddressThatNeverAnswersTimesOutInSeconds() throws {
        guard let silent = SilentListener() else { print("skipped: no listening socket on 127.0.0.1 here"); return }
        let started = Date()
        let r = try ToolRunner.run("imu-steps", ["--simulate", "walk:10", "--speed", "2", "--gpsd", "127.0.0.1:\(silent.port)", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("gpsd at 127.0.0.1:\(silent.port) is not reachable (timed out: nothing answered within 3 s"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("--gpsd HOST:PORT"), "stderr: \(r.stderr)")
        #expect(Date().timeIntervalSince(started) < 60)
        withExtendedLifetime(silent) {}
    }
}

/// `mqtt_ca_file = /dev/zero` (or a file that is no certificate) passed the config check and
/// failed only at the TLS handshake; now it is refused with the config's file and line.
@Suite(.offPool) struct MQTTCAFileConfigTests {
    @Test(arguments: [("/dev/zero", "is a character device, not a CA file"), ("notes.txt", "holds no PEM certificate"),
                      ("missing.pem", "cannot be read: No such file or directory"), (".", "is a directory, not a CA file")])
    func aCAFileThatIsNoCertificateIsRefusedWhenTheConfigIsRead(_ ca: String, _ problem: String) throws {
        let dir = try scratchDirectory()
        let r = try ShellRunner.run("""
            echo 'just notes' > notes.txt
            printf 'bus = session\\nmqtt_broker = mqtts://broker.lan\\nmqtt_ca_file = \(ca)\\n' > c.conf
            "$BIN/imu-stepd" --config c.conf
            """, directory: dir, timeout: 30)
        #expect(r.status == 2, "stderr: \(r.stderr)")
        // A relative file is the config's directory's, named absolute (docs/service.md).
        let named = ca.hasPrefix("/") ? ca : ca == "." ? dir : dir + "/" + ca
        #expect(r.stderr.contains("c.conf:3: mqtt_ca_file: \(named) \(problem)"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: point mqtt_ca_file at the PEM file of the CA"), "stderr: \(r.stderr)")
    }
}

/// The MQTT credentials file is read with the config, as the CA file is: its line and the fix.
/// It was first read when the publisher started: no line, and permission denied exited 2.
@Suite(.serialized) struct MQTTCredentialsConfigTests {
    @Test(arguments: [("missing.cred", 0o600, "cannot be read (No such file or directory)", "create it with the two lines"),
                      ("open.cred", 0o644, "is readable by its group or by others (mode 644)", "chmod 600 open.cred"),
                      ("bad.cred", 0o600, "is not KEY=VALUE", "write the two lines username=NAME and password=SECRET")])
    func aBadCredentialsFileIsRefusedWhenTheConfigIsRead(_ file: String, _ mode: Int, _ problem: String, _ fix: String) throws {
        let dir = try scratchDirectory()
        let r = try ShellRunner.run("""
            printf 'username=stepd\npassword=x\n' > open.cred && chmod \(String(mode, radix: 8)) open.cred
            printf 'stepd x\n' > bad.cred && chmod 600 bad.cred
            printf 'bus = session\nmqtt_broker = mqtt://127.0.0.1:1\nmqtt_credentials = \(file)\n' > c.conf
            "$BIN/imu-stepd" --config c.conf
            """, directory: dir, timeout: 30)
        #expect(r.status == 2, "stderr: \(r.stderr)")
        // A relative file is the config's directory's, named absolute (docs/service.md).
        #expect(r.stderr.contains("c.conf:3: mqtt_credentials: MQTT credentials \(dir)/\(file)"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains(problem) && r.stderr.contains("fix: " ) && r.stderr.contains(fix.replacingOccurrences(of: file, with: dir + "/" + file)),
                "stderr: \(r.stderr)")
    }

    @Test func anUnreadableCredentialsFileExitsThree() throws {
        guard geteuid() != 0 else { print("skipped: root reads a file of mode 000"); return }
        let dir = try scratchDirectory()
        let r = try ShellRunner.run("""
            printf 'username=stepd\npassword=x\n' > locked.cred && chmod 000 locked.cred
            printf 'bus = session\nmqtt_broker = mqtt://127.0.0.1:1\nmqtt_credentials = locked.cred\n' > c.conf
            "$BIN/imu-stepd" --config c.conf
            """, directory: dir, timeout: 30)
        #expect(r.status == 3, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("c.conf:3: mqtt_credentials: MQTT credentials \(dir)/locked.cred: cannot be read (Permission denied)"), "stderr: \(r.stderr)")
    }
}

/// Tests/kernel/run.sh with IMU_BIN unset used .build/release as it was: after an edit without
/// `swift build -c release`, the ring tested the old code and passed without a word. It now
/// brings .build/release up to date first. Run here on a copy of the script in an empty tree, with
/// a stand-in `swift` that records its arguments and fails, so no guest is built and no qemu starts.
@Suite(.offPool) struct KernelRingBuildTests {
    @Test func withoutIMUBinTheRingBuildsReleaseFirst() throws {
        guard ["/usr/bin/qemu-system-x86_64", "/bin/qemu-system-x86_64"].contains(where: FileManager.default.isExecutableFile) else {
            print("skipped: run.sh stops at once (exit 0) without qemu-system-x86_64"); return
        }
        let dir = try scratchDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/Tests/kernel", withIntermediateDirectories: true)
        let script = ToolRunner.packageRoot.appendingPathComponent("Tests/kernel/run.sh").path
        let r = try ShellRunner.run("""
            cp '\(script)' Tests/kernel/run.sh
            printf '#!/bin/sh\\necho "$PWD $*" > %s/swift-called\\nexit 1\\n' "$PWD" > fake-swift && chmod +x fake-swift
            env -u IMU_BIN SWIFT="$PWD/fake-swift" Tests/kernel/run.sh
            """, directory: dir, timeout: 60)
        #expect(r.status == 1, "stdout: \(r.stdout) stderr: \(r.stderr)")
        let called = (try? String(contentsOfFile: dir + "/swift-called", encoding: .utf8)) ?? ""
        #expect(called == "\(dir) build -c release\n", "swift was called as: \(called); stderr: \(r.stderr)")
        #expect(r.stderr.contains("swift build -c release failed; fix the build, or set IMU_BIN"), "stderr: \(r.stderr)")
    }
}

extension AuditLeftoverTests {
    /// The plot's own words said "1 samples" too (its title line).
    @Test func aPlotOfOneSampleSaysSample() throws {
        let dir = try scratchDirectory()
        try "t,ax,ay,az\n1,0,0,1\n".write(toFile: dir + "/one.csv", atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-plot", ["--replay", dir + "/one.csv", "-o", dir + "/one.svg"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let svg = try String(contentsOfFile: dir + "/one.svg", encoding: .utf8)
        #expect(svg.contains("· 1 sample<") || svg.contains("· 1 sample "), "svg: \(svg.prefix(2000))")
        #expect(!svg.contains("1 samples"), "svg says '1 samples'")
    }
}
