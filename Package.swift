// swift-tools-version:6.0
// IMUKit: MEMS sensors on Linux → steps, cadence, distance, floors and activity.
// One target per layer, one folder per target; see docs/ARCHITECTURE.md.
import PackageDescription

var targets: [Target] = []

// MARK: C layer: the only C in the project. No logic, only what Swift cannot call itself.
targets += [
    // libiio (Debian libiio-dev to build, libiio0 to run), loaded on first use: Sources/CLibIIO/include/CLibIIO.h.
    // dlopen on first use, shared by the four library targets below: Sources/COnDemand/include/COnDemand.h.
    .target(name: "COnDemand"),
    .target(name: "CLibIIO", dependencies: ["COnDemand"]),
    .target(name: "CI2C", linkerSettings: [.linkedLibrary("i2c")]),
    // Standard descriptors closed at start, seen before the Swift runtime opens any: Sources/CStandardDescriptors/include.
    .target(name: "CStandardDescriptors"),
]

// MARK: Core: samples, units, clock, recording format. No hardware, no C.
targets += [
    .target(name: "IMUCore"),
    .testTarget(name: "IMUCoreTests", dependencies: ["IMUCore"]),
]

// MARK: Simulation: seeded 3-D scenarios with ground truth.
targets += [
    .target(name: "IMUSimulation", dependencies: ["IMUCore"]),
    .testTarget(name: "IMUSimulationTests", dependencies: ["IMUSimulation"]),
]

// MARK: Pedometer core: orientation, steps, cadence, stride, floors, activity. No hardware.
targets += [
    .target(name: "Pedometer", dependencies: ["IMUCore"]),
    .testTarget(name: "PedometerTests", dependencies: ["Pedometer", "IMUSimulation"], resources: [.copy("Fixtures")]),
]

// MARK: Calibration: six-position fit, gyro bias, calibration store.
targets += [
    .target(name: "IMUCalibration", dependencies: ["IMUCore"]),
    .testTarget(name: "IMUCalibrationTests", dependencies: ["IMUCalibration", "IMUSimulation"]),
]

// MARK: Sensors: I²C chips through i2c-dev, kernel IIO devices through libiio.
targets += [
    .target(name: "IMUSensors", dependencies: ["IMUCore", "IMUSimulation", "IMUCalibration", "CLibIIO", "CI2C"]),
    // Register-level chip emulators and an emulated bus with fault injection (test support).
    // IMUSensorsTests holds the I²C tests (Chips*, I2C*) and the IIO tests (IIO/).
    .target(name: "ChipEmulators", dependencies: ["IMUSensors"], path: "Tests/ChipEmulators"),
    .testTarget(name: "IMUSensorsTests", dependencies: ["IMUSensors", "ChipEmulators"]),
]

// MARK: Tools: CLI support and one executable per command.
targets += [
    .target(name: "IMUCLI", dependencies: ["IMUCore", "Pedometer", "IMUSensors", "IMUSimulation", "IMUCalibration", "CStandardDescriptors"]),
    .executableTarget(name: "imu-info", dependencies: ["IMUCLI"], path: "Sources/Tools/imu-info"),
    .testTarget(name: "IMUCLITests", dependencies: ["IMUCLI", "Pedometer"]),
    .executableTarget(name: "imu-steps", dependencies: ["IMUCLI", "Pedometer", "IMUServiceClient"], path: "Sources/Tools/imu-steps"),
    .testTarget(name: "ToolsTests", dependencies: ["IMUCore", "IMUSimulation"]),
    .executableTarget(name: "imu-record", dependencies: ["IMUCLI"], path: "Sources/Tools/imu-record"),
    .executableTarget(name: "imu-calibrate", dependencies: ["IMUCLI"], path: "Sources/Tools/imu-calibrate"),
]

// MARK: MQTT publishing (Home Assistant discovery) over Debian's libmosquitto.
targets += [
    .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev", "libssl-dev"])]),
    .target(name: "IMUPublish", dependencies: ["IMUCore", "CMosquitto"]),
    .testTarget(name: "IMUPublishTests", dependencies: ["IMUPublish"]),
]

// MARK: Version: VERSION and the git commit, generated into IMUCLI before each build (--version).
targets += [
    .plugin(name: "VersionStamp", capability: .buildTool()),
]
for t in targets where t.name == "IMUCLI" { t.plugins = (t.plugins ?? []) + [.plugin(name: "VersionStamp")] }

// MARK: Benchmarks (make bench): print figures, never assert timings.
targets += [
    .executableTarget(name: "imu-bench-i2c", dependencies: ["BenchArguments", "IMUSensors", "ChipEmulators"], path: "Sources/Benchmarks/imu-bench-i2c"),
    .executableTarget(name: "imu-bench-core", dependencies: ["BenchArguments", "IMUCore", "Pedometer", "IMUSimulation"], path: "Sources/Benchmarks/imu-bench-core"),
    .executableTarget(name: "imu-bench-accuracy", dependencies: ["BenchArguments", "Pedometer", "IMUSimulation"],
                      path: "Sources/Benchmarks/imu-bench-accuracy"),
    .executableTarget(name: "imu-bench-iio", dependencies: ["IMUSensors", "IMUCLI", "ProcFiles"], path: "Sources/Benchmarks/imu-bench-iio"),
    .executableTarget(name: "imu-bench-power", dependencies: ["BenchArguments", "IMUSensors", "IMUCLI", "ChipEmulators", "Pedometer", "ProcFiles"],
                      path: "Sources/Benchmarks/imu-bench-power"),
]

// MARK: History: minute bins in SQLite (Debian libsqlite3-dev), the wall-clock sync state, async queries.
targets += [
    // SQLite (Debian libsqlite3-dev to build, libsqlite3-0 to run), loaded on first use: Sources/CSQLite/include/CSQLite.h.
    .target(name: "CSQLite", dependencies: ["COnDemand"]),
    .systemLibrary(name: "CClock"),
    .target(name: "IMUHistory", dependencies: ["IMUCore", "Pedometer", "CSQLite", "CClock"]),
    .testTarget(name: "IMUHistoryTests", dependencies: ["IMUHistory", "IMUSimulation", "CSQLite"]),
    .executableTarget(name: "imu-bench-history", dependencies: ["BenchArguments", "IMUHistory", "CSQLite"], path: "Sources/Benchmarks/imu-bench-history"),
]

// MARK: Replay speed (issue #11 part 3): end-to-end replay beside a minimal C parser of the same file.
targets += [
    .executableTarget(name: "replay-c-parser", path: "Sources/Benchmarks/replay-c-parser"),
    .executableTarget(name: "imu-bench-replay", dependencies: ["BenchArguments"], path: "Sources/Benchmarks/imu-bench-replay"),
]

// MARK: Fuzzing (make fuzz, docs/testing-fuzz.md): one executable, three targets; built normally it
// replays the kept crash inputs.
targets += [
    .executableTarget(name: "imu-fuzz", dependencies: ["IMUCore", "IMUCalibration"], path: "Sources/Fuzz/imu-fuzz"),
]

// MARK: Plots (imu-plot): SVG of a recording, HTML of a day from the history. Pure Swift drawing.
targets += [
    .target(name: "IMUPlot", dependencies: ["IMUCore", "Pedometer", "IMUHistory"]),
    .testTarget(name: "IMUPlotTests", dependencies: ["IMUPlot", "IMUCore", "Pedometer", "IMUSimulation", "IMUHistory"]),
    .executableTarget(name: "imu-plot", dependencies: ["IMUCLI", "IMUPlot", "Pedometer", "IMUSimulation", "IMUHistory", "IMUCalibration"],
                      path: "Sources/Tools/imu-plot"),
    .executableTarget(name: "imu-bench-plot", dependencies: ["BenchArguments", "IMUCore", "IMUSimulation"], path: "Sources/Benchmarks/imu-bench-plot"),
]

// MARK: Activity with GPS ground speed (issue 15): gpsd through libgps, speed only.
targets += [
    // libgps (Debian libgps-dev to build, libgps28 to run), loaded on first use: Sources/CGPS/include/CGPS.h.
    .target(name: "CGPS", dependencies: ["COnDemand"]),
    .target(name: "IMULocation", dependencies: ["CGPS", "Pedometer"]),
    .testTarget(name: "IMULocationTests", dependencies: ["IMULocation", "IMUSimulation"]),
    .executableTarget(name: "imu-bench-activity", dependencies: ["BenchArguments", "Pedometer", "IMUSimulation"],
                      path: "Sources/Benchmarks/imu-bench-activity"),
]
// The tools' GPS flags (--gps, imu-record's gnss_speed column, imu-info's GPS line) live in IMUCLI.
for t in targets where t.name == "IMUCLI" { t.dependencies.append("IMULocation") }
// Debian's gpsd fed by gpsfake, for the GPS tests of the library and the tools (test support).
targets += [.target(name: "GPSFake", path: "Tests/GPSFake")]
for t in targets where ["IMULocationTests", "ToolsTests", "IMUServiceTests"].contains(t.name) { t.dependencies.append("GPSFake") }

// MARK: Step service (imu-stepd): daemon core, D-Bus through sd-bus, clients. docs/service.md.
targets += [
    // libsystemd (Debian libsystemd-dev to build, libsystemd0 to run), loaded on first use: Sources/CSystemd/include/CSystemd.h.
    .target(name: "CSystemd", dependencies: ["COnDemand"]),
    .target(name: "IMUServiceClient", dependencies: ["CSystemd", "IMUCore", "Pedometer", "IMUHistory"]),
    .target(name: "IMUService", dependencies: ["IMUServiceClient", "IMUCLI", "Pedometer", "IMUHistory", "CSystemd", "IMUPublish"]),
    .executableTarget(name: "imu-stepd", dependencies: ["IMUService"], path: "Sources/Tools/imu-stepd"),
    .testTarget(name: "IMUServiceTests", dependencies: ["IMUService", "IMUServiceClient", "IMUSimulation", "IMUHistory", "Pedometer", "IMUPublish"]),
]
// IMUServiceTests is declared after the GPS block's loop that gives it GPSFake (DaemonGPSTests).
for t in targets where t.name == "IMUServiceTests" { t.dependencies.append("GPSFake") }

// MARK: Memory (issue 11 part 5, docs/memory.md): RSS of a live imu-steps, by mapping, beside anchors.
targets += [
    .executableTarget(name: "imu-bench-memory", dependencies: ["BenchArguments", "ProcFiles", "IMUCore"], path: "Sources/Benchmarks/imu-bench-memory"),
    // The benchmarks' command lines: --help, and a usage error with its fix for anything else.
    .target(name: "BenchArguments", dependencies: ["IMUCore"], path: "Sources/Benchmarks/BenchArguments"),
    // /proc reading shared by imu-bench-power, imu-bench-iio and imu-bench-memory.
    .target(name: "ProcFiles", dependencies: ["IMUCore"], path: "Sources/Benchmarks/ProcFiles"),
]

// MARK: Test support: daemons (mosquitto, dbus-daemon, gpsfake) that die with the test process,
// also when it is killed: Tests/DaemonGuard.
targets += [.target(name: "DaemonGuard", path: "Tests/DaemonGuard")]
for t in targets where ["GPSFake", "IMUPublishTests", "IMUServiceTests"].contains(t.name) { t.dependencies.append("DaemonGuard") }

// MARK: Test support: a TCP listener on 127.0.0.1 at a port the kernel picks (a stand-in that is
// not the daemon a tool expects), and free ports for the daemons the tests start: Tests/LoopbackListener.
targets += [.target(name: "LoopbackListener", path: "Tests/LoopbackListener")]
for t in targets where ["GPSFake", "IMUPublishTests", "ToolsTests", "IMULocationTests"].contains(t.name) { t.dependencies.append("LoopbackListener") }

// MARK: Test support: which descriptors this process and a child it spawns hold: Tests/DescriptorProbe.
targets += [.target(name: "DescriptorProbe", path: "Tests/DescriptorProbe")]
for t in targets where ["IMUCoreTests", "IMUHistoryTests", "IMUServiceTests", "IMUPublishTests", "IMULocationTests"].contains(t.name) {
    t.dependencies.append("DescriptorProbe")
}

// MARK: Test support: `.offPool`, the trait for suites whose tests block (run tools, sleep, read
// pipes): each test's jobs run on threads of their own, never on the Swift concurrency pool.
targets += [.target(name: "OffPool", dependencies: ["IMUCore"], path: "Tests/OffPool")]
for t in targets where t.type == .test { t.dependencies.append("OffPool") }

let package = Package(
    name: "IMUKit",
    products: [
        // The library side: depend on these from another package.
        .library(name: "IMUCore", targets: ["IMUCore"]),
        .library(name: "Pedometer", targets: ["Pedometer"]),
        .library(name: "IMUSimulation", targets: ["IMUSimulation"]),
        .library(name: "IMUCalibration", targets: ["IMUCalibration"]),
        .library(name: "IMUSensors", targets: ["IMUSensors"]),
        .library(name: "IMUHistory", targets: ["IMUHistory"]),
        .library(name: "IMUPublish", targets: ["IMUPublish"]),
        .library(name: "IMULocation", targets: ["IMULocation"]),
        // The tools.
        .executable(name: "imu-info", targets: ["imu-info"]),
        .executable(name: "imu-steps", targets: ["imu-steps"]),
        .executable(name: "imu-record", targets: ["imu-record"]),
        .executable(name: "imu-calibrate", targets: ["imu-calibrate"]),
        .executable(name: "imu-stepd", targets: ["imu-stepd"]),
        .library(name: "IMUServiceClient", targets: ["IMUServiceClient"]),
        .executable(name: "imu-plot", targets: ["imu-plot"]),
    ],
    targets: targets,
    swiftLanguageModes: [.v6]
)
