/// The pedometer core: hardware-free. See docs/ARCHITECTURE.md.
@_exported import IMUCore
