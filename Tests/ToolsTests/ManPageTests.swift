import Foundation
import IMUCore
import OffPool
import Testing

/// Man pages (docs/man/*.in, built by packaging/man.py from each tool's --help): every shipped
/// tool has one, every option its --help lists is in it (as roff source and as man renders it),
/// man reports no warnings, and the recording format page lists every column the library knows.
@Suite(.offPool) struct ManPageTests {
    /// Builds the pages of the shipped tools into a fresh directory; nil (and a message) without python3.
    static func buildPages() throws -> String? {
        guard onPath("python3") else {
            print("ManPageTests: skipped: python3 is not installed (apt-get install python3)")
            return nil
        }
        let out = try scratchDirectory()
        let r = try runCommand("/usr/bin/env", ["python3", ToolRunner.packageRoot.path + "/packaging/man.py",
                                                "--bin", ToolRunner.binDirectory.path, "--out", out] + ShippedTools.names)
        #expect(r.status == 0, "packaging/man.py: \(r.stderr)")
        return out
    }

    /// `man -l PAGE` as plain text, and its warnings; nil without man-db.
    static func render(_ page: String) throws -> (text: String, warnings: String)? {
        guard onPath("man") else { return nil }
        let r = try runCommand("/usr/bin/env", ["man", "--warnings", "-E", "UTF-8", "-l", page],
                               environment: ["MANWIDTH": "80", "MAN_KEEP_FORMATTING": "", "LC_ALL": "C.UTF-8", "MANPAGER": "cat", "PAGER": "cat"])
        #expect(r.status == 0, "man -l \(page): \(r.stderr)")
        // Strip overstrike bold/underline (X\bX, _\bX) that grotty emits.
        let plain = r.stdout.replacing(/.\x{08}/, with: "")
        return (plain, r.stderr)
    }

    @Test func everyOptionOfEveryToolIsInItsManPage() throws {
        let tools = ShippedTools.names
        try #require(!tools.isEmpty, "make print-tools listed no tools")
        guard let out = try Self.buildPages() else { return }
        defer { try? FileManager.default.removeItem(atPath: out) }
        for tool in tools {
            let section = FileManager.default.fileExists(atPath: "\(out)/\(tool).8") ? 8 : 1
            let page = "\(out)/\(tool).\(section)"
            let source = try String(contentsOfFile: page, encoding: .utf8)
            let options = try helpOptions(tool)
            #expect(options.contains("help") && options.contains("version"), "\(tool): --help lists \(options)")
            for option in options {
                let roff = "\\-\\-" + option.replacingOccurrences(of: "-", with: "\\-")
                #expect(source.contains(roff), "\(tool).\(section) lacks --\(option)")
            }
            if let (text, warnings) = try Self.render(page) {
                #expect(warnings.isEmpty, "man warns about \(tool).\(section): \(warnings)")
                // man justifies lines, so the NAME line may read "imu-steps  -  count ...".
                #expect(text.contains(try Regex("\\n {7}\(tool) +- +\\S")), "\(tool).\(section) has no NAME line")
                for option in options {
                    #expect(text.contains("--\(option)"), "\(tool).\(section) renders without --\(option)")
                }
            } else {
                print("ManPageTests: rendering not checked: man is not installed (apt-get install man-db)")
            }
        }
    }

    @Test func theRecordingFormatPageListsEveryColumn() throws {
        guard let out = try Self.buildPages() else { return }
        defer { try? FileManager.default.removeItem(atPath: out) }
        let source = try String(contentsOfFile: "\(out)/imukit-recording.5", encoding: .utf8)
        #expect(source.firstMatch(of: /@[A-Z_]+@/) == nil, "unfilled placeholder in imukit-recording.5")
        // The names in the COLUMNS section's tag lines (.B t, .BR ax ", " ay ", " az).
        let columns = try #require(source.firstRange(of: ".SH COLUMNS").map { source[$0.upperBound...] })
        let section = columns.split(separator: "\n.SH ").first ?? ""
        let listed = Set(section.split(separator: "\n").filter { $0.hasPrefix(".B") }.flatMap {
            $0.dropFirst(3).split(whereSeparator: { " \",".contains($0) }).map { $0.replacingOccurrences(of: "\\", with: "") }
        })
        for column in RecordingColumn.allCases {
            #expect(listed.contains(column.rawValue), "imukit-recording.5 does not list column \(column.rawValue); it lists \(listed.sorted())")
        }
        if let (_, warnings) = try Self.render("\(out)/imukit-recording.5") {
            #expect(warnings.isEmpty, "man warns about imukit-recording.5: \(warnings)")
        }
    }

    @Test func aToolWithoutAManPageSourceIsAnError() throws {
        guard onPath("python3") else { return }
        let out = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try runCommand("/usr/bin/env", ["python3", ToolRunner.packageRoot.path + "/packaging/man.py",
                                                "--bin", ToolRunner.binDirectory.path, "--out", out, "imu-nonexistent"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("no man page source docs/man/imu-nonexistent.N.in"), "\(r.stderr)")
    }
}
