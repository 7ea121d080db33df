import Foundation
import OffPool
import Testing

/// The step service's system files (data/), the 64-bit check, and imu-steps without the daemon.
@Suite(.offPool) struct ServiceFilesTests {
    let root = ToolRunner.packageRoot

    func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theUnitPassesSystemdAnalyzeVerify() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
            print("skipped: systemd-analyze is not installed (apt-get install systemd)"); return
        }
        // verify checks that ExecStart exists: point it at the built daemon.
        let dir = try scratchDirectory()
        let unit = try text("data/imu-stepd.service").replacingOccurrences(of: "/usr/local/bin/imu-stepd", with: ToolRunner.path("imu-stepd"))
        try unit.write(toFile: dir + "/imu-stepd.service", atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        p.arguments = ["verify", dir + "/imu-stepd.service"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = err
        try p.run()
        let output = String(decoding: try err.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(output)")
        // Warnings about our unit would show its name; messages about other units are not ours.
        #expect(!output.contains("imu-stepd.service:"), "\(output)")
    }

    @Test func theUnitIsANotifyServiceWithAWatchdogAServiceUserAndASandbox() throws {
        let unit = try text("data/imu-stepd.service")
        for line in ["Type=notify", "WatchdogSec=", "StateDirectory=imu-stepd", "User=imu-stepd", "SupplementaryGroups=i2c iio",
                     "ProtectSystem=strict", "NoNewPrivileges=yes", "RestrictAddressFamilies=AF_UNIX", "CapabilityBoundingSet=\n",
                     "ProtectHome=yes", "PrivateTmp=yes"] {
            #expect(unit.contains(line), "missing \(line)")
        }
        let users = try text("data/imu-stepd.sysusers.conf")
        #expect(users.contains("m imu-stepd i2c") && users.contains("m imu-stepd iio") && users.contains("g imukit"))
        let policy = try text("data/io.github.imukit.StepService1.conf")
        #expect(policy.contains("<policy group=\"imukit\">") && policy.contains("send_member=\"Reset\""))
    }

    @Test func aThirtyTwoBitSystemStopsWithTheReason() throws {
        let dir = try scratchDirectory()
        let bin = dir + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for (name, body) in ["getconf": "#!/bin/sh\necho 32\n", "uname": "#!/bin/sh\necho armv7l\n", "swift": "#!/bin/sh\nexit 0\n"] {
            try body.write(toFile: bin + "/" + name, atomically: true, encoding: .utf8)
            chmod(bin + "/" + name, 0o755)
        }
        let (status, text) = try ToolRunner.ensureDeps(fakeBin: bin)
        #expect(status == 1)
        #expect(text.contains("64-bit") && text.contains("aarch64") && text.contains("armv7l"), "\(text)")
    }

    @Test func imuStepsSaysPlainlyWhenTheDaemonIsNotRunning() throws {
        for question in [["--today"], ["--history", "7d"], ["--since", "00:00", "--json"]] {
            let r = try ToolRunner.run("imu-steps", question, environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/imukit-bus"])
            #expect(r.status == 1, "\(question): \(r.stderr)")
            // The variable names a bus nobody listens at: that is said, not "start imu-stepd" (BadInputSweep21Tests).
            #expect(r.stderr.contains("cannot ask the step daemon imu-stepd") && r.stderr.contains("correct DBUS_SYSTEM_BUS_ADDRESS"), "\(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }

    @Test func imuStepsRefusesBadQuestions() throws {
        for (args, words) in [(["--history", "week"], "number of days"), (["--since", "25:99"], "hours go from 0 to 23"), (["--since", "noon"], "HH:MM"),
                              (["--today", "--history", "3d"], "cannot be used together"), (["--today", "--replay", "x.csv"], "cannot be used together")] {
            let r = try ToolRunner.run("imu-steps", args)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.contains(words), "\(args): \(r.stderr)")
        }
    }
}
