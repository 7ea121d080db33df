/// Six-position accelerometer calibration, gyro bias, calibration store.
@_exported import IMUCore
