{ Snake.pas - the SnakeCore helper library for Pascal bots (Free Pascal).

  The judge adds this unit to every Pascal submission for SnakeCore, so a bot just uses it:

      uses Snake;

      function MyAction(var Area: TAreaInfo): char;
      begin
        MyAction := ActNone;
      end;

      begin
        Run('my bot', @MyAction);
      end.

  Run answers getName with the name (cut to the 32 bytes the page allows, control
  characters made spaces) and each getAction with the function's answer, flushing every
  answer, and returns at the end of the input. A bot may also read the requests itself
  with ReadRequest, or ignore this unit.

  Coordinates are X (column) and Y (row), from 0 at the top left; ActUp is Y-1. }
unit Snake;

{$mode objfpc}{$H+}

interface

const
  { The actions a bot may answer. }
  ActUp = 'U';
  ActLeft = 'L';
  ActDown = 'D';
  ActRight = 'R';
  ActNone = 'N';     { skip the move }
  ActProtect = 'A';  { spend an energy block for 10 moves of protection }
  Moves: array[0..3] of char = ('U', 'L', 'D', 'R');

  { The characters of the field. }
  CellWall = 'W';
  CellReactor = 'R';
  CellBlock = 'b';   { an ordinary block, free or in a body }
  CellEnergy = 'e';  { an energy block, free or in a body }
  CellHead = 'p';    { a python's head }
  CellEmpty = '.';

  { What ReadRequest read. }
  RequestEnd = 0;
  RequestName = 1;
  RequestAction = 2;

type
  TSnakePoint = record
    X, Y: longint;
  end;

  { A python: Parts[0] is the head, Parts[Len - 1] the tail; Len >= 1. }
  TPython = record
    Protection: longint;          { own moves of protection left (0: not protected) }
    Len: longint;                 { the length, head included }
    Parts: array of TSnakePoint;  { head first, tail last }
  end;

  { One getAction request: the field and the pythons. }
  TAreaInfo = object
    Size: longint;                { the side of the square field }
    Turn: longint;                { getAction requests read so far, 1 for the first }
    Rows: array of AnsiString;    { Rows[Y][X + 1] is the cell (X, Y) }
    PythonCount: longint;
    Pythons: array of TPython;    { Pythons[0] is the bot's own, the others in id order }
    Owners: array of longint;     { see Owner }
    Indexes: array of longint;    { see PartIndex }
    function Inside(X, Y: longint): boolean;
    { The character of (X, Y); off the field a CellWall. }
    function Cell(X, Y: longint): char;
    { The index in Pythons of the python with a part on (X, Y), or -1. }
    function Owner(X, Y: longint): longint;
    { The index of that part in its python's Parts (0 for a head), or -1. }
    function PartIndex(X, Y: longint): longint;
    { A block on (X, Y) that belongs to no python. }
    function IsFreeBlock(X, Y: longint): boolean;
    function IsEmpty(X, Y: longint): boolean;
  end;

  TActionFunc = function(var Area: TAreaInfo): char;

{ The column and row next to X and Y in the direction of a move action. }
function StepX(X: longint; Action: char): longint;
function StepY(Y: longint; Action: char): longint;
{ The Manhattan distance between two cells. }
function Dist(X1, Y1, X2, Y2: longint): longint;

{ Reads the rest of a getAction request (after its first line). The number of python
  lines is the number of heads on the field. False at the end of the input or on a
  malformed request. }
function ReadArea(var Area: TAreaInfo): boolean;
{ Reads the next request: RequestName, RequestAction (Area filled) or RequestEnd (end of
  the input, or a malformed request). Unknown lines are skipped. }
function ReadRequest(var Area: TAreaInfo): longint;
{ The name as the page allows it: at most 32 bytes, no character below #32. }
function CleanName(const Name: AnsiString): AnsiString;
{ Plays on standard input and output until the input ends. }
procedure Run(const Name: AnsiString; Action: TActionFunc);

implementation

var
  Requests: longint = 0;

function TAreaInfo.Inside(X, Y: longint): boolean;
begin
  Inside := (X >= 0) and (Y >= 0) and (X < Size) and (Y < Size);
end;

function TAreaInfo.Cell(X, Y: longint): char;
begin
  if Inside(X, Y) then
    Cell := Rows[Y][X + 1]
  else
    Cell := CellWall;
end;

function TAreaInfo.Owner(X, Y: longint): longint;
begin
  if Inside(X, Y) then
    Owner := Owners[Y * Size + X]
  else
    Owner := -1;
end;

function TAreaInfo.PartIndex(X, Y: longint): longint;
begin
  if Inside(X, Y) then
    PartIndex := Indexes[Y * Size + X]
  else
    PartIndex := -1;
end;

function TAreaInfo.IsFreeBlock(X, Y: longint): boolean;
var
  c: char;
begin
  c := Cell(X, Y);
  IsFreeBlock := ((c = CellBlock) or (c = CellEnergy)) and (Owner(X, Y) < 0);
end;

function TAreaInfo.IsEmpty(X, Y: longint): boolean;
begin
  IsEmpty := Inside(X, Y) and (Cell(X, Y) = CellEmpty);
end;

function StepX(X: longint; Action: char): longint;
begin
  if Action = ActLeft then
    StepX := X - 1
  else if Action = ActRight then
    StepX := X + 1
  else
    StepX := X;
end;

function StepY(Y: longint; Action: char): longint;
begin
  if Action = ActUp then
    StepY := Y - 1
  else if Action = ActDown then
    StepY := Y + 1
  else
    StepY := Y;
end;

function Dist(X1, Y1, X2, Y2: longint): longint;
begin
  Dist := abs(X1 - X2) + abs(Y1 - Y2);
end;

{ Removes spaces, tabs, CR and LF at both ends. }
function TrimLine(const s: AnsiString): AnsiString;
var
  a, b: longint;
begin
  a := 1;
  b := System.Length(s);
  while (a <= b) and (s[a] in [' ', #9, #13, #10]) do
    inc(a);
  while (b >= a) and (s[b] in [' ', #9, #13, #10]) do
    dec(b);
  TrimLine := Copy(s, a, b - a + 1);
end;

{ Reads the next integer of s from position p on; false when there is none. }
function NextInt(const s: AnsiString; var p: longint; out v: longint): boolean;
var
  neg: boolean;
  digits: longint;
begin
  v := 0;
  neg := false;
  digits := 0;
  while (p <= System.Length(s)) and (s[p] in [' ', #9]) do
    inc(p);
  if (p <= System.Length(s)) and (s[p] = '-') then
  begin
    neg := true;
    inc(p);
  end;
  while (p <= System.Length(s)) and (s[p] in ['0'..'9']) do
  begin
    if v < 100000000 then
      v := v * 10 + (ord(s[p]) - ord('0'));
    inc(digits);
    inc(p);
  end;
  if neg then
    v := -v;
  NextInt := digits > 0;
end;

function ReadArea(var Area: TAreaInfo): boolean;
var
  s: AnsiString;
  n, x, y, k, i, p, heads, v: longint;
begin
  ReadArea := false;
  if eof(input) then
    exit;
  readln(s);
  p := 1;
  if not NextInt(s, p, n) or (n <= 0) then
    exit;
  Area.Size := n;
  Area.Turn := Requests;
  SetLength(Area.Rows, n);
  SetLength(Area.Owners, n * n);
  SetLength(Area.Indexes, n * n);
  for i := 0 to n * n - 1 do
  begin
    Area.Owners[i] := -1;
    Area.Indexes[i] := -1;
  end;
  heads := 0;
  for y := 0 to n - 1 do
  begin
    if eof(input) then
      exit;
    readln(s);
    while (System.Length(s) > 0) and (s[System.Length(s)] in [#13, #10]) do
      SetLength(s, System.Length(s) - 1);
    while System.Length(s) < n do
      s := s + CellEmpty;
    SetLength(s, n);
    Area.Rows[y] := s;
    for x := 1 to n do
      if s[x] = CellHead then
        inc(heads);
  end;
  Area.PythonCount := heads;
  SetLength(Area.Pythons, heads);
  for k := 0 to heads - 1 do
  begin
    if eof(input) then
      exit;
    readln(s);
    p := 1;
    if not NextInt(s, p, Area.Pythons[k].Protection) or not NextInt(s, p, v) or (v < 1) then
      exit;
    Area.Pythons[k].Len := v;
    SetLength(Area.Pythons[k].Parts, v);
    for i := 0 to v - 1 do
    begin
      if not NextInt(s, p, x) or not NextInt(s, p, y) then
        exit;
      Area.Pythons[k].Parts[i].X := x;
      Area.Pythons[k].Parts[i].Y := y;
      if Area.Inside(x, y) then
      begin
        Area.Owners[y * n + x] := k;
        Area.Indexes[y * n + x] := i;
      end;
    end;
  end;
  ReadArea := heads > 0;
end;

function ReadRequest(var Area: TAreaInfo): longint;
var
  s: AnsiString;
begin
  ReadRequest := RequestEnd;
  while not eof(input) do
  begin
    readln(s);
    s := TrimLine(s);
    if s = 'getName' then
    begin
      ReadRequest := RequestName;
      exit;
    end;
    if s = 'getAction' then
    begin
      inc(Requests);
      if ReadArea(Area) then
        ReadRequest := RequestAction;
      exit;
    end;
  end;
end;

function CleanName(const Name: AnsiString): AnsiString;
var
  i: longint;
  s: AnsiString;
begin
  s := Copy(Name, 1, 32);
  for i := 1 to System.Length(s) do
    if s[i] < #32 then
      s[i] := ' ';
  CleanName := s;
end;

procedure Run(const Name: AnsiString; Action: TActionFunc);
var
  Area: TAreaInfo;
  r: longint;
begin
  repeat
    r := ReadRequest(Area);
    if r = RequestName then
      writeln(CleanName(Name))
    else if r = RequestAction then
      writeln(Action(Area));
    flush(output);
  until r = RequestEnd;
end;

end.
