{ Red-team bot: on its first line it tries to run another program the Free Pascal way. }
program spawn;
{$mode objfpc}
uses SysUtils;
var
  line: string;
begin
  readln(line);
  try
    writeln('spawned ', ExecuteProcess('/bot/bot', ''));
  except
    on e: Exception do writeln('refused ', e.Message);
  end;
  flush(output);
end.
