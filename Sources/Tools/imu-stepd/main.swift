import IMUCLI
import IMUService

/// imu-stepd: the step service (docs/service.md). systemd starts it; `imu-steps --today` asks it.
await ToolMain.run(StepDaemon.spec) { args in
    try await StepDaemon.run(args) { config in
        try HistoryStepStore(path: config.resolvedDatabasePath, retentionDays: config.retentionDays, configPath: config.path)
    }
}
