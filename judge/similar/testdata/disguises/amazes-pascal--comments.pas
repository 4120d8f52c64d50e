(* Maze runner that keeps its right hand on the wall.
   Reads four corridor descriptions plus a distance each turn
   and prints a string of moves. *)
program bot;
{$mode objfpc}{$H+}  // object pascal dialect, long strings

const
  MoveChar: array[0..3] of char = ('F', 'R', 'T', 'L');  // the letter for each direction
  Order: array[0..3] of integer = (1, 0, 3, 2);  // preference order when picking a direction

var
  rngState: int64 = 20100101;  // seed

(* pseudo random number below n, same sequence on every run *)
function NextRandom(n: integer): integer;
begin
  rngState := (rngState * 1103515245 + 12345) and $7FFFFFFF;
  NextRandom := (rngState shr 16) mod n;
end;

// reads a line and trims blanks, tabs and carriage returns
function ReadLine(var s: string): boolean;
var
  a, b: integer;
begin
  // no more input at all
  if eof(input) then
  begin
    ReadLine := false;
    exit;
  end;
  readln(s);
  a := 1;
  b := length(s);
  // skip leading blanks
  while (a <= b) and (s[a] in [' ', #9, #13]) do inc(a);
  // and trailing ones
  while (b >= a) and (s[b] in [' ', #9, #13]) do dec(b);
  s := copy(s, a, b - a + 1);
  ReadLine := true;
end;

var
  // main program state
  turn, d, k, dir, count, i: integer;
  line, distance, answer, c: string;
  corridor: array[0..3] of string;
  open: array[0..3] of boolean;
  choices: array[0..2] of integer;
  here: char;
  right, left, ahead: boolean;

begin
  for turn := 1 to 150 do  // never play more than 150 turns
  begin
    if not ReadLine(line) then halt(0);
    if line = 'Quit' then halt(0);
    if line = 'Start' then  // first message of the game
    begin
      if not ReadLine(line) then halt(0);
      if line = 'Quit' then halt(0);
    end;
    // first line is the view straight ahead, then right, behind, left
    corridor[0] := line;
    for d := 1 to 3 do
      if not ReadLine(corridor[d]) then halt(0);
    if not ReadLine(distance) then halt(0);  // not needed
    // append a closing wall and find out which directions are open
    for d := 0 to 3 do
    begin
      if (length(corridor[d]) = 0) or (corridor[d][length(corridor[d])] <> 'W') then
        corridor[d] := corridor[d] + 'W';
      open[d] := corridor[d][1] <> 'W';
    end;

    // right hand rule
    dir := -1;
    for k := 0 to 3 do
      if (dir < 0) and open[Order[k]] then dir := Order[k];
    (* once in a while choose at random to escape loops *)
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

    // compose the reply
    if dir < 0 then
      answer := 'T'  // dead end everywhere, turn back
    else
    begin
      answer := MoveChar[dir];
      // keep walking while the corridor is known
      c := corridor[dir];
      i := 1;
      while length(answer) < 25 do  // at most 25 steps per reply
      begin
        here := c[i];
        right := (here = 'R') or (here = 'B');
        left := (here = 'L') or (here = 'B');
        ahead := (i + 1 <= length(c)) and (c[i + 1] <> 'W');
        // an opening on the right: take it and stop
        if right then
        begin
          answer := answer + 'R';
          break;
        end;
        // otherwise keep going straight
        if ahead then
        begin
          answer := answer + 'F';
          inc(i);
          continue;
        end;
        if left then answer := answer + 'L';
        break;  // left turn or dead end
      end;
    end;
    // marker for the viewer
    writeln(StdErr, '@judge dot 0 0 layer=sample');
    flush(StdErr);
    writeln(answer);  // send the moves
    flush(output);
  end;
end.
