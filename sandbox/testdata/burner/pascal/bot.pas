{ Start-up burner for the judge's tests: burns 600 ms of CPU before it reads anything, then
  sleeps for good without a word. Every game must charge the burn to its first request. }
program bot;

{$mode objfpc}{$H+}

uses
  SysUtils, BaseUnix, Linux;

var
  sink: Int64 = 0;
  stop: Int64;
  i: Integer;

function CpuMillis: Int64;
var
  ts: TTimeSpec;
begin
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, @ts);
  Result := Int64(ts.tv_sec) * 1000 + ts.tv_nsec div 1000000;
end;

begin
  stop := CpuMillis + 600; { burn-ms }
  while CpuMillis < stop do
    for i := 1 to 100000 do
      sink := sink + i;
  while True do
    Sleep(3600000);
end.
