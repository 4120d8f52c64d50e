{ Amazes sample bot (Pascal): a right-hand wall follower.
  Each turn it reads the four corridor lines (ahead, right, behind, left) and the
  squared distance, then takes the first open direction of right, ahead, left,
  behind (one turn in eight, chosen by a fixed-seed generator, it picks a random
  open side or ahead instead, so it cannot circle an island forever). While the
  step lands in a corridor it has just seen, it keeps following the right-hand
  rule along that corridor, so one line may hold several steps (never more than
  25). It exits on "Quit", at end of input, and after its 150th turn. }
program bot;
{$mode objfpc}{$H+}

const
  MoveChar: array[0..3] of char = ('F', 'R', 'T', 'L'); { ahead, right, behind, left }
  Order: array[0..3] of integer = (1, 0, 3, 2);         { right, ahead, left, behind }

var
  rngState: int64 = 20100101;
  verbose: boolean = false;

{ A small fixed-seed linear congruential generator: a number in 0..n-1. }
function NextRandom(n: integer): integer;
begin
  rngState := (rngState * 1103515245 + 12345) and $7FFFFFFF;
  NextRandom := (rngState shr 16) mod n;
end;

{ Counts the walls in a corridor line. }
function CountWalls(const s: string): integer;
var
  j, w: integer;
begin
  w := 0;
  for j := 1 to length(s) do
    if s[j] = 'W' then inc(w);
  CountWalls := w;
end;

{ The moves of m, mirrored left to right. }
function Mirror(const m: string): string;
var
  j: integer;
  r: string;
begin
  r := '';
  for j := 1 to length(m) do
    if m[j] = 'R' then r := r + 'L'
    else if m[j] = 'L' then r := r + 'R'
    else r := r + m[j];
  Mirror := r;
end;

{ Reads one line without the trailing CR and surrounding spaces; false at end of file. }
function ReadLine(var s: string): boolean;
var
  a, b: integer;
begin
  if eof(input) then
  begin
    ReadLine := false;
    exit;
  end;
  readln(s);
  a := 1;
  b := length(s);
  while (a <= b) and (s[a] in [' ', #9, #13]) do inc(a);
  while (b >= a) and (s[b] in [' ', #9, #13]) do dec(b);
  s := copy(s, a, b - a + 1);
  ReadLine := true;
end;

var
  turn, d, k, dir, count, i: integer;
  line, distance, answer, c: string;
  corridor: array[0..3] of string;
  open: array[0..3] of boolean;
  choices: array[0..2] of integer;
  here: char;
  right, left, ahead: boolean;
  walls, extra: integer;

begin
  for turn := 1 to 150 do
  begin
    if not ReadLine(line) then halt(0);
    if line = 'Quit' then halt(0);
    if turn > 150 then
    begin
      writeln(StdErr, 'too many turns');
      halt(1);
    end;
    if line = 'Start' then
    begin
      if not ReadLine(line) then halt(0);
      if line = 'Quit' then halt(0);
    end;
    corridor[0] := line;
    for d := 1 to 3 do
      if not ReadLine(corridor[d]) then halt(0);
    if not ReadLine(distance) then halt(0); { squared distance: not used }
    for d := 0 to 3 do
    begin
      if (length(corridor[d]) = 0) or (corridor[d][length(corridor[d])] <> 'W') then
        corridor[d] := corridor[d] + 'W';
      open[d] := corridor[d][1] <> 'W';
    end;

    walls := 0;
    for d := 3 downto 4 do
      walls := walls + CountWalls(corridor[d]);

    { First step: right-hand rule (right, ahead, left, behind), sometimes random. }
    dir := -1;
    for k := 0 to 3 do
      if (dir < 0) and open[Order[k]] then dir := Order[k];
    if NextRandom(8) = 0 then
    begin
      count := 0;
      for k := 0 to 2 do
        if open[Order[k]] then
        begin
          choices[count] := Order[k];
          inc(count);
        end;
      if count > 0 then dir := choices[NextRandom(count)];
    end;
    if dir > 3 then
    begin
      extra := walls;
      dir := extra mod 4;
    end;

    if dir < 0 then
      answer := 'T' { no open side seen at all: just turn around }
    else
    begin
      answer := MoveChar[dir];
      { Follow the corridor just entered while the next step is known. }
      c := corridor[dir];
      i := 1;
      while length(answer) < 25 do
      begin
        here := c[i];
        right := (here = 'R') or (here = 'B');
        left := (here = 'L') or (here = 'B');
        ahead := (i + 1 <= length(c)) and (c[i + 1] <> 'W');
        if right then
        begin
          answer := answer + 'R';
          break;
        end;
        if ahead then
        begin
          answer := answer + 'F';
          inc(i);
          continue;
        end;
        if left then answer := answer + 'L';
        if verbose then answer := Mirror(answer);
        break; { a turn leaves the known corridor, or a dead end }
      end;
    end;
    { A dot on its start square (drawn by the viewer: docs/viewer.md, Drawing on the board). }
    writeln(StdErr, '@judge dot 0 0 layer=sample');
    flush(StdErr);
    writeln(answer);
    flush(output);
  end;
end.
