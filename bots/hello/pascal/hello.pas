{ Hello bot: answers every line with the same line. }
program hello;
var
  line: string;
begin
  while not eof(input) do
  begin
    readln(line);
    writeln(line);
    flush(output);
  end;
end.
