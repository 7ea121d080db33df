import IMUSensors

/// The hardware backends tools search, in order: I²C chips without a kernel driver first, then
/// kernel IIO devices (local libiio context).
public enum CLIBackends {
    public static var hardware: [any SensorBackend] { [IIOBackend()] }
}
