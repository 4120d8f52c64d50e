{ Amazes sample bot (Pascal): a right-hand wall follower.
  Each turn it reads the four corridor lines (ahead, right, behind, left) and the
  squared distance, then takes the first open direction of right, ahead, left,
  behind (one turn in eight, chosen by a fixed-seed generator, it picks a random
  open side or ahead instead, so it cannot circle an island forever). While the
  step lands in a corridor it has just seen, it keeps following the right-hand
  rule along that corridor, so one line may hold several steps (never more than
  25). It exits on "Quit", at end of input, and after its 150th turn. }
program walker;
{$mode objfpc}{$H+}

const
  StepLetter: array[0..3] of char = ('F', 'R', 'T', 'L'); { ahead, right, behind, left }
  Pref: array[0..3] of integer = (1, 0, 3, 2);         { right, ahead, left, behind }

var
  SeedValue: int64 = 20100101;

{ A small fixed-seed linear congruential generator: a number in 0..n-1. }
function RollDice(limit: integer): integer;
begin
  SeedValue := (SeedValue * 1103515245 + 12345) and $7FFFFFFF;
  RollDice := (SeedValue shr 16) mod limit;
end;

{ Reads one line without the trailing CR and surrounding spaces; false at end of file. }
function FetchRow(var txt: string): boolean;
var
  lo, hi: integer;
begin
  if eof(input) then
  begin
    FetchRow := false;
    exit;
  end;
  readln(txt);
  lo := 1;
  hi := length(txt);
  while (lo <= hi) and (txt[lo] in [' ', #9, #13]) do inc(lo);
  while (hi >= lo) and (txt[hi] in [' ', #9, #13]) do dec(hi);
  txt := copy(txt, lo, hi - lo + 1);
  FetchRow := true;
end;

var
  rnd, side, j, heading, total, pos: integer;
  row, dist2, reply, path: string;
  hall: array[0..3] of string;
  isFree: array[0..3] of boolean;
  options: array[0..2] of integer;
  cell: char;
  toRight, toLeft, straight: boolean;

begin
  for rnd := 1 to 150 do
  begin
    if not FetchRow(row) then halt(0);
    if row = 'Quit' then halt(0);
    if row = 'Start' then
    begin
      if not FetchRow(row) then halt(0);
      if row = 'Quit' then halt(0);
    end;
    hall[0] := row;
    for side := 1 to 3 do
      if not FetchRow(hall[side]) then halt(0);
    if not FetchRow(dist2) then halt(0); { squared distance: not used }
    for side := 0 to 3 do
    begin
      if (length(hall[side]) = 0) or (hall[side][length(hall[side])] <> 'W') then
        hall[side] := hall[side] + 'W';
      isFree[side] := hall[side][1] <> 'W';
    end;

    { First step: right-hand rule (right, ahead, left, behind), sometimes random. }
    heading := -1;
    for j := 0 to 3 do
      if (heading < 0) and isFree[Pref[j]] then heading := Pref[j];
    if RollDice(8) = 0 then
    begin
      total := 0;
      for j := 0 to 2 do
        if isFree[Pref[j]] then
        begin
          options[total] := Pref[j];
          inc(total);
        end;
      if total > 0 then heading := options[RollDice(total)];
    end;

    if heading < 0 then
      reply := 'T' { no open side seen at all: just turn around }
    else
    begin
      reply := StepLetter[heading];
      { Follow the corridor just entered while the next step is known. }
      path := hall[heading];
      pos := 1;
      while length(reply) < 25 do
      begin
        cell := path[pos];
        toRight := (cell = 'R') or (cell = 'B');
        toLeft := (cell = 'L') or (cell = 'B');
        straight := (pos + 1 <= length(path)) and (path[pos + 1] <> 'W');
        if toRight then
        begin
          reply := reply + 'R';
          break;
        end;
        if straight then
        begin
          reply := reply + 'F';
          inc(pos);
          continue;
        end;
        if toLeft then reply := reply + 'L';
        break; { a turn leaves the known corridor, or a dead end }
      end;
    end;
    { A dot on its start square (drawn by the viewer: docs/viewer.md, Drawing on the board). }
    writeln(StdErr, '@judge dot 0 0 layer=sample');
    flush(StdErr);
    writeln(reply);
    flush(output);
  end;
end.
