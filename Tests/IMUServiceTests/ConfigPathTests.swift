import Foundation
import IMUCLI
import Testing
@testable import IMUService

/// Files the config file names, relative: taken from the config file's own directory. They were
/// taken from the daemon's working directory, `/` under systemd, so `replay = walk.csv` next to
/// /etc/imukit/stepd.conf looked for /walk.csv.
@Suite struct ConfigPathTests {
    @Test func relativeFilesAreTakenFromTheConfigsDirectory() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/conf", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir + "/conf/walk.csv", contents: Data("t,ax,ay,az\n".utf8))
        _ = FileManager.default.createFile(atPath: dir + "/shared.csv", contents: Data("t,ax,ay,az\n".utf8))
        let config = dir + "/conf/stepd.conf"
        try "replay = walk.csv\nstate_directory = ./state\ndatabase = ../db/h.sqlite\n".write(toFile: config, atomically: true, encoding: .utf8)
        // Read from another directory: "/" as under systemd.
        let c = try ServiceConfig.load(path: config, required: true)
        #expect(c.source == .replay(path: dir + "/conf/walk.csv", speed: 1))
        #expect(c.stateDirectory == dir + "/conf/state")
        #expect(c.resolvedDatabasePath == dir + "/conf/../db/h.sqlite")
        // Absolute paths and standard input stay as written.
        try "replay = \(dir)/shared.csv\nstate_directory = /var/lib/x\n".write(toFile: config, atomically: true, encoding: .utf8)
        let absolute = try ServiceConfig.load(path: config, required: true)
        #expect(absolute.source == .replay(path: dir + "/shared.csv", speed: 1))
        #expect(absolute.resolvedDatabasePath == "/var/lib/x/history.sqlite")
        #expect(try ServiceConfig.parse("replay = -", path: config).source == .replay(path: "-", speed: 1))
    }

    /// A relative config path (`--config stepd.conf` by hand) has the working directory as its own.
    @Test func aRelativeConfigPathMeansTheWorkingDirectory() {
        let paths = ConfigPaths(configPath: "conf/./stepd.conf", workingDirectory: "/home/me")
        #expect(paths.directory == "/home/me/conf")
        #expect(paths.resolve("walk.csv") == "/home/me/conf/walk.csv")
        #expect(paths.resolve("/abs/walk.csv") == "/abs/walk.csv")
        #expect(ConfigPaths(configPath: "/stepd.conf").resolve("walk.csv") == "/walk.csv")
    }

    /// The message names the file as written and the absolute file it was taken to mean.
    @Test func aMissingRelativeReplayNamesTheResolvedFile() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = dir + "/stepd.conf"
        try "replay = missing.csv\n".write(toFile: config, atomically: true, encoding: .utf8)
        #expect(throws: ConfigError(path: config, line: 1,
                                    message: "replay = 'missing.csv' (\(dir)/missing.csv) cannot be opened: No such file or directory",
                                    fix: ConfigReplayFile.fix, errorNumber: ENOENT)) {
            try ServiceConfig.load(path: config, required: true)
        }
    }

    /// `mqtt_ca_file` relative: read from the config's directory, and named absolute when it is bad.
    @Test func aRelativeCAFileIsTheConfigDirectorysFile() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let config = dir + "/stepd.conf"
        try "mqtt_broker = mqtts://broker.lan\nmqtt_ca_file = ca.pem\n".write(toFile: config, atomically: true, encoding: .utf8)
        let error = #expect(throws: ConfigError.self) { try ServiceConfig.load(path: config, required: true) }
        #expect(error?.message.contains("mqtt_ca_file: \(dir)/ca.pem cannot be read") == true, "\(String(describing: error))")
        // A DER SEQUENCE's first bytes (0x30 0x82 …): the start-up check refuses a body that is none.
        try "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2Vy\n-----END CERTIFICATE-----\n".write(toFile: dir + "/ca.pem", atomically: true, encoding: .utf8)
        let c = try ServiceConfig.load(path: config, required: true)
        #expect(c.mqtt?.caFile == dir + "/ca.pem")
    }
}
