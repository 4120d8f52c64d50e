{ Test bot for the judge's bot-lifecycle tests (Free Pascal version).

  Before reading stdin it runs each line of ./start.txt, if that file
  exists, as a command ("burn 500" then "echo READY", say). Then it runs every stdin line as a command and exits
  with status 0 at end of input. Commands:
    echo ...   print the whole line back        exit N     exit with status N
    burn MS    burn MS ms of CPU, say "burned"  sleep MS   sleep MS ms, say "slept"
    signal N   send signal N to itself, then say "alive" if still running
    close      close stdout, then spin forever  hang       block forever
    other      say "unknown"
  Answers are flushed at once; start.txt commands answer only "echo". }
program bot;

{$mode objfpc}{$H+}

uses
  SysUtils, BaseUnix, Linux;

function CpuMillis: Int64;
var
  ts: TTimeSpec;
begin
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, @ts);
  Result := Int64(ts.tv_sec) * 1000 + ts.tv_nsec div 1000000;
end;

procedure Answer(const s: string);
begin
  WriteLn(s);
  Flush(Output);
end;

procedure Run(line: string; fromStdin: Boolean);
var
  cmd, rest: string;
  n, p: Integer;
  stop: Int64;
begin
  if (line <> '') and (line[Length(line)] = #13) then
    SetLength(line, Length(line) - 1);
  cmd := Trim(line);
  rest := '';
  p := Pos(' ', cmd);
  if p > 0 then
  begin
    rest := Trim(Copy(cmd, p + 1, MaxInt));
    cmd := Copy(cmd, 1, p - 1);
  end;
  p := Pos(' ', rest);
  if p > 0 then
    rest := Copy(rest, 1, p - 1);
  n := StrToIntDef(rest, 0);

  if cmd = 'echo' then
    Answer(line)
  else if cmd = 'exit' then
  begin
    Flush(Output);
    Halt(n);
  end
  else if cmd = 'burn' then
  begin
    stop := CpuMillis + n;
    while CpuMillis < stop do
      ;
    if fromStdin then
      Answer('burned');
  end
  else if cmd = 'sleep' then
  begin
    Sleep(n);
    if fromStdin then
      Answer('slept');
  end
  else if cmd = 'signal' then
  begin
    { The RTL catches SIGSEGV, SIGFPE, ... to turn them into runtime errors;
      restore the default action so the signal does what it does to a C program. }
    FpSignal(n, signalhandler(SIG_DFL));
    FpKill(FpGetPid, n);
    Sleep(1000);
    Answer('alive');
  end
  else if cmd = 'close' then
  begin
    FpClose(1);
    while True do
      ;
  end
  else if cmd = 'hang' then
  begin
    while True do
      Sleep(1000000);
  end
  else
    Answer('unknown');
end;

var
  f: Text;
  line: string;
begin
  if FileExists('start.txt') then
  begin
    FileMode := fmOpenRead;
    AssignFile(f, 'start.txt');
    Reset(f);
    while not EOF(f) do
    begin
      ReadLn(f, line);
      Run(line, False);
    end;
    CloseFile(f);
  end;
  while not EOF(Input) do
  begin
    ReadLn(Input, line);
    Run(line, True);
  end;
end.
