import IMUSensors

/// The hardware backends tools search, in order (see IMUSensors `Backends.all`: I²C chips without
/// a kernel driver first, then kernel IIO devices).
public enum CLIBackends {
    public static var hardware: [any SensorBackend] { Backends.all }
}
