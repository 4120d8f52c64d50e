{ A sample bot of {{.Title}}: it answers 7 every turn. }
program bot;

var line: string;
begin
  while not EOF(Input) do
  begin
    ReadLn(line);
    WriteLn(7);
    Flush(Output);
  end;
end.
