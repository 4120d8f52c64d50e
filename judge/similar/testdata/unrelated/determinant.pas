{ Reads square matrices from standard input and prints their determinants.
  Input: the size n, then n rows of n numbers; repeated until end of input.
  Uses Gaussian elimination with partial pivoting, and for small integer
  matrices also the cofactor expansion as a cross-check. }
program Determinant;
{$mode objfpc}

const
  MaxN = 10;
  Eps = 1e-12;

type
  TMatrix = array[1..MaxN, 1..MaxN] of double;

function GaussDet(m: TMatrix; n: integer): double;
var
  col, row, pivot, k: integer;
  factor, tmp, det: double;
begin
  det := 1.0;
  for col := 1 to n do
  begin
    pivot := col;
    for row := col + 1 to n do
      if abs(m[row, col]) > abs(m[pivot, col]) then
        pivot := row;
    if abs(m[pivot, col]) < Eps then
    begin
      GaussDet := 0.0;
      exit;
    end;
    if pivot <> col then
    begin
      for k := 1 to n do
      begin
        tmp := m[col, k];
        m[col, k] := m[pivot, k];
        m[pivot, k] := tmp;
      end;
      det := -det;
    end;
    det := det * m[col, col];
    for row := col + 1 to n do
    begin
      factor := m[row, col] / m[col, col];
      for k := col to n do
        m[row, k] := m[row, k] - factor * m[col, k];
    end;
  end;
  GaussDet := det;
end;

{ Laplace expansion along the first row; exponential, so only for n <= 6. }
function CofactorDet(const m: TMatrix; n: integer): double;
var
  sub: TMatrix;
  j, r, c, cc: integer;
  sign, sum: double;
begin
  if n = 1 then
  begin
    CofactorDet := m[1, 1];
    exit;
  end;
  if n = 2 then
  begin
    CofactorDet := m[1, 1] * m[2, 2] - m[1, 2] * m[2, 1];
    exit;
  end;
  sum := 0.0;
  sign := 1.0;
  for j := 1 to n do
  begin
    for r := 2 to n do
    begin
      cc := 0;
      for c := 1 to n do
        if c <> j then
        begin
          inc(cc);
          sub[r - 1, cc] := m[r, c];
        end;
    end;
    sum := sum + sign * m[1, j] * CofactorDet(sub, n - 1);
    sign := -sign;
  end;
  CofactorDet := sum;
end;

procedure PrintMatrix(const m: TMatrix; n: integer);
var
  r, c: integer;
begin
  for r := 1 to n do
  begin
    for c := 1 to n do
      write(m[r, c]:10:3);
    writeln;
  end;
end;

var
  a: TMatrix;
  n, r, c, count: integer;
  d1, d2: double;

begin
  count := 0;
  while not seekeof(input) do
  begin
    read(n);
    if (n < 1) or (n > MaxN) then
    begin
      writeln('size must be between 1 and ', MaxN);
      halt(1);
    end;
    for r := 1 to n do
      for c := 1 to n do
        read(a[r, c]);
    inc(count);
    writeln('Matrix #', count, ' (', n, 'x', n, '):');
    PrintMatrix(a, n);
    d1 := GaussDet(a, n);
    writeln('  det (elimination) = ', d1:0:6);
    if n <= 6 then
    begin
      d2 := CofactorDet(a, n);
      writeln('  det (cofactors)   = ', d2:0:6);
      if abs(d1 - d2) > 1e-6 * (1 + abs(d2)) then
        writeln('  warning: the two methods disagree');
    end;
    if abs(d1) < Eps then
      writeln('  the matrix is singular');
  end;
  if count = 0 then
    writeln('no matrix given');
end.
