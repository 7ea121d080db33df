/// The built-in simulator: seeded 3-D scenarios with ground truth. See docs/ARCHITECTURE.md.
@_exported import IMUCore
