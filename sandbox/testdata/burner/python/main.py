# Start-up burner for the judge's tests: burns 600 ms of CPU before it reads anything, then
# sleeps for good without a word. Every game must charge the burn to its first request.
import time

end = time.process_time() + 600 / 1e3  # burn-ms
sink = 0
while time.process_time() < end:
    for i in range(10000):
        sink += i
while True:
    time.sleep(3600)
