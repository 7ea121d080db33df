import OffPool
import Testing
import Foundation

/// udev/60-imukit.rules: `udevadm verify` where it exists (systemd ≥ 254), and always a parse
/// check of every rule (Debian 12's udev 252 has no verify), plus a dry run of the sysfs script.
@Suite(.offPool) struct UdevRulesTests {
    static let rulesPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("udev/60-imukit.rules").path

    /// One `KEY[{attr}]OP"value"` pair.
    struct Pair { var key: String; var op: String; var value: String }

    /// Splits a rule line into pairs; nil when any part is not well-formed.
    static func parse(_ line: String) -> [Pair]? {
        var pairs: [Pair] = []
        var rest = Substring(line)
        let ops = ["==", "!=", "+=", "-=", ":=", "="]
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard let keyEnd = rest.firstIndex(where: { "=!+-:".contains($0) }) else { return nil }
            let key = String(rest[..<keyEnd])
            guard key.range(of: #"^[A-Z_]+(\{[A-Za-z0-9_*/.-]+\})?$"#, options: .regularExpression) != nil else { return nil }
            rest = rest[keyEnd...]
            guard let op = ops.first(where: { rest.hasPrefix($0) }) else { return nil }
            rest = rest.dropFirst(op.count)
            guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else { return nil }
            pairs.append(Pair(key: key, op: op, value: String(rest[rest.index(after: rest.startIndex)..<close])))
            rest = rest[rest.index(after: close)...]
            rest = rest.drop { $0 == " " }
            if rest.isEmpty { break }
            guard rest.first == "," else { return nil }
            rest = rest.dropFirst()
        }
        return pairs.isEmpty ? nil : pairs
    }

    func rules() throws -> [[Pair]] {
        let text = try String(contentsOfFile: Self.rulesPath, encoding: .utf8)
        var result: [[Pair]] = []
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.isEmpty || t.hasPrefix("#") { continue }
            guard let pairs = Self.parse(t) else {
                Issue.record("60-imukit.rules:\(n + 1): not KEY OP \"VALUE\", …: \(t)")
                continue
            }
            result.append(pairs)
        }
        return result
    }

    @Test func everyRuleIsWellFormed() throws {
        let all = try rules()
        #expect(all.count >= 3)
        for rule in all {
            #expect(rule.contains { ["==", "!="].contains($0.op) }, "a rule without a match applies to every device")
            #expect(rule.contains { ["=", "+=", ":="].contains($0.op) }, "a rule without an assignment does nothing")
            for p in rule where p.key == "RUN" {
                // udev expands $name and %x itself; a shell's $ must be written $$.
                let singles = p.value.replacingOccurrences(of: "$$", with: "").contains("$")
                #expect(!singles, "RUN uses a bare $ (udev would substitute it): \(p.value)")
                #expect(p.value.hasPrefix("/"), "RUN needs an absolute program path")
            }
        }
    }

    @Test func groupAccessNeverWorld() throws {
        let all = try rules()
        let nodeRules = all.filter { $0.contains { $0.key == "MODE" } }
        #expect(nodeRules.count == 2)
        for rule in nodeRules {
            let mode = rule.first { $0.key == "MODE" }!.value
            #expect(mode == "0660", "MODE \(mode)")
            #expect(rule.contains { $0.key == "GROUP" && !$0.value.isEmpty })
        }
        func rule(matching kernel: String) -> [Pair]? {
            nodeRules.first { $0.contains { $0.key == "KERNEL" && $0.value == kernel } }
        }
        #expect(rule(matching: "i2c-[0-9]*")?.contains { $0.key == "GROUP" && $0.value == "i2c" } == true)
        #expect(rule(matching: "iio:device[0-9]*")?.contains { $0.key == "GROUP" && $0.value == "iio" } == true)
        for r in all { for p in r where p.key == "RUN" {
            #expect(!p.value.contains("o+w") && !p.value.contains("a+w") && !p.value.contains("666") && !p.value.contains("777"))
        } }
    }

    @Test func sysfsScriptGivesTheGroupWriteAccessOnly() throws {
        // Run the IIO device rule's script on a fake sysfs directory, with our own group for "iio".
        let run = try #require(try rules().first { $0.contains { $0.value == "iio:device[0-9]*" } && $0.contains { $0.key == "RUN" } }?
            .first { $0.key == "RUN" }?.value)
        let dir = NSTemporaryDirectory() + "imukit-sysfs-\(UUID().uuidString)"
        let writable = ["buffer/enable", "buffer/length", "scan_elements/in_accel_x_en", "in_accel_sampling_frequency",
                        "current_timestamp_clock", "trigger/current_trigger"]
        let untouched = ["in_accel_x_raw", "scan_elements/in_accel_x_type", "name"]
        for f in writable + untouched {
            let path = dir + "/" + f
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: path, contents: Data("0\n".utf8), attributes: [.posixPermissions: 0o644]), "\(path)")
        }
        let script = run.replacingOccurrences(of: "/bin/sh -c '", with: "").dropLast()
            .replacingOccurrences(of: "%S%p", with: dir).replacingOccurrences(of: "$$", with: "$")
            .replacingOccurrences(of: "chgrp iio", with: "chgrp \(getgid())")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        func mode(_ f: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: dir + "/" + f)[.posixPermissions] as! NSNumber).intValue
        }
        for f in writable { #expect(try mode(f) == 0o664, "\(f)") }
        for f in untouched { #expect(try mode(f) == 0o644, "\(f)") }
    }

    @Test func udevadmVerifyWhenAvailable() throws {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/bin/sh")
        probe.arguments = ["-c", "udevadm verify --help >/dev/null 2>&1"]
        try probe.run()
        probe.waitUntilExit()
        guard probe.terminationStatus == 0 else { return }   // udev < 254: the parse check above stands in
        let verify = Process()
        verify.executableURL = URL(fileURLWithPath: "/bin/sh")
        verify.arguments = ["-c", "udevadm verify --resolve-names=never '\(Self.rulesPath)'"]
        try verify.run()
        verify.waitUntilExit()
        #expect(verify.terminationStatus == 0)
    }
}
