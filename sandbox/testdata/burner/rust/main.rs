// Start-up burner for the judge's tests: burns 600 ms of CPU before it reads anything, then
// sleeps for good without a word. Every game must charge the burn to its first request.
use std::time::Duration;

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, t: *mut Timespec) -> i32;
}

fn cpu() -> f64 {
    let mut t = Timespec { sec: 0, nsec: 0 };
    unsafe { clock_gettime(2, &mut t) }; // CLOCK_PROCESS_CPUTIME_ID
    t.sec as f64 + t.nsec as f64 / 1e9
}

fn main() {
    let end = cpu() + 600.0 / 1e3; // burn-ms
    let mut sink: u64 = 0;
    while cpu() < end {
        for i in 0..100000u64 {
            // A volatile write: the loop is not optimised away.
            unsafe { std::ptr::write_volatile(&mut sink, sink.wrapping_add(i)) };
        }
    }
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}
