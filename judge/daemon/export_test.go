package daemon

// MemAvailable is the kernel's estimate of the memory available to start new work, as the
// judge reads it.
var MemAvailable = memAvailable
