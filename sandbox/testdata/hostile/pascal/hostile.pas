{ Red-team bot in Free Pascal for the script game: each line is a command, and each command
  answers one line. "echo X" answers itself; "alloc N" touches N MiB; "threads N" starts N
  threads; "spawn" runs another program; "write P" creates a file. }
program hostile;
{$mode objfpc}{$H+}
uses SysUtils;

function wait(p: pointer): ptrint;
begin
  while true do Sleep(1000000);
  wait := 0;
end;

var
  line, cmd, arg: string;
  i, n, started, space: longint;
  block: pointer;
  h: THandle;
begin
  while not eof(input) do
  begin
    readln(line);
    space := Pos(' ', line);
    if space = 0 then space := Length(line) + 1;
    cmd := Copy(line, 1, space - 1);
    arg := Copy(line, space + 1, Length(line));
    n := StrToIntDef(arg, 0);
    if cmd = 'echo' then
      writeln(line)
    else if cmd = 'alloc' then
    begin
      for i := 1 to n do
      begin
        GetMem(block, 1 shl 20);
        FillChar(block^, 1 shl 20, 1);
      end;
      writeln('allocated ', n);
    end
    else if cmd = 'threads' then
    begin
      started := 0;
      while (started < n) and (BeginThread(@wait) <> 0) do Inc(started);
      writeln('threads ', started);
    end
    else if cmd = 'spawn' then
      writeln('spawn ', ExecuteProcess('/bot/bot', ''))
    else if cmd = 'write' then
    begin
      h := FileCreate(arg);
      if h = THandle(-1) then
        writeln('write ', arg, ' ', SysErrorMessage(GetLastOSError))
      else
      begin
        FileClose(h);
        writeln('write ', arg, ' succeeded');
      end;
    end
    else
      writeln('unknown ', cmd);
    flush(output);
  end;
end.
