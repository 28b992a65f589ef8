! Ping-pong between ranks 0 and 1 through the Fortran 2008 binding
! (`use mpi_f08`), rank 0 optionally late by a known delay, then an
! MPI_Allreduce and an MPI_Barrier over all ranks. In MPICH this binding
! reaches MPI in two ways: the routines with a buffer argument (MPI_Send,
! MPI_Isend, MPI_Allreduce ...) call the C MPI_* functions, the others
! (MPI_Init, MPI_Comm_rank, MPI_Wait, MPI_Barrier, MPI_Finalize ...) call
! PMPI_* directly. Details: doc/examples.md.
program f08pingpong
  use mpi_f08
  use iso_fortran_env, only : error_unit, int64, real64
  implicit none
  integer, parameter :: ping_tag = 1, pong_tag = 2
  integer :: rank, ranks, round_trips, elements, round, total, wrong, status_code
  real(real64) :: delay
  type(MPI_Status) :: status
  type(MPI_Request) :: request
  logical :: run
  integer, allocatable :: buffer(:)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks)

  round_trips = 10
  elements = 128
  delay = 0
  call parse_options(rank == 0, run, status_code)
  if (run .and. ranks < 2) then
    if (rank == 0) write (error_unit, '(a,i0)') 'f08pingpong: needs at least 2 ranks, got ', ranks
    run = .false.
    status_code = 2
  end if
  if (.not. run) then
    call MPI_Finalize()
    if (status_code /= 0) stop 2, quiet=.true.
    stop
  end if

  allocate (buffer(elements))
  wrong = 0
  if (rank == 0) call delayed_work(delay)
  do round = 1, round_trips
    if (rank == 0) then
      call fill(buffer, round)
      call MPI_Send(buffer, elements, MPI_INTEGER, 1, ping_tag, MPI_COMM_WORLD)
      call MPI_Irecv(buffer, elements, MPI_INTEGER, 1, pong_tag, MPI_COMM_WORLD, request)
      call MPI_Wait(request, status)
      wrong = wrong + mismatches(buffer, round)
    else if (rank == 1) then
      call MPI_Recv(buffer, elements, MPI_INTEGER, 0, ping_tag, MPI_COMM_WORLD, status)
      call MPI_Isend(buffer, elements, MPI_INTEGER, 0, pong_tag, MPI_COMM_WORLD, request)
      call MPI_Wait(request, MPI_STATUS_IGNORE)
    end if
  end do
  deallocate (buffer)

  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (total /= ranks * (ranks - 1) / 2) wrong = wrong + 1
  call MPI_Barrier(MPI_COMM_WORLD)

  if (wrong /= 0) then
    write (error_unit, '(a,i0,a,i0,a)') 'f08pingpong: rank ', rank, ': ', wrong, ' wrong values'
  else if (rank == 0) then
    write (*, '(a,i0,a,i0,a,i0,a)') 'f08pingpong: ', ranks, ' ranks, ', round_trips, &
      ' round trips of ', elements, ' integers, allreduce correct'
  end if
  call MPI_Finalize()
  if (wrong /= 0) stop 1, quiet=.true.

contains

  ! Computes (spins) for `seconds`: the injected delay, which holds up
  ! rank 1's first MPI_Recv and every other rank's MPI_Allreduce.
  subroutine delayed_work(seconds)
    real(real64), intent(in) :: seconds
    integer(int64) :: start, now, rate
    call system_clock(start, rate)
    do
      call system_clock(now)
      if (real(now - start, real64) >= seconds * real(rate, real64)) exit
    end do
  end subroutine delayed_work

  ! The payload of round trip `round`; rank 1 echoes it, rank 0 checks it.
  subroutine fill(values, round)
    integer, intent(out) :: values(:)
    integer, intent(in) :: round
    integer :: i
    do i = 1, size(values)
      values(i) = round * 1000 + i
    end do
  end subroutine fill

  integer function mismatches(values, round)
    integer, intent(in) :: values(:)
    integer, intent(in) :: round
    integer :: expected(size(values))
    call fill(expected, round)
    mismatches = count(values /= expected)
  end function mismatches

  ! Reads `--count N`, `--elements N`, `--delay SECONDS` and `--help`. Sets
  ! `run` when the program should go on; otherwise `code` is its exit status
  ! (0 after --help, 2 after an error). Only a rank with `speak` set prints.
  subroutine parse_options(speak, run, code)
    logical, intent(in) :: speak
    logical, intent(out) :: run
    integer, intent(out) :: code
    character(len=256) :: argument, value
    integer :: i, number, ios
    real(real64) :: seconds

    run = .true.
    code = 0
    i = 1
    do while (i <= command_argument_count())
      call get_command_argument(i, argument)
      if (argument == '--help' .or. argument == '-h') then
        if (speak) then
          write (*, '(a)') 'Usage: mpiexec -n RANKS f08pingpong [options]'
          write (*, '(a)') 'Ranks 0 and 1 exchange messages (use mpi_f08), then all ranks reduce and synchronize.'
          write (*, '(a)') ''
          write (*, '(a)') 'Options:'
          write (*, '(a)') '  --count N              number of round trips (default 10)'
          write (*, '(a)') '  --elements N           integers per message (default 128)'
          write (*, '(a)') '  --delay SECONDS        rank 0 computes this long before its first send (default 0)'
          write (*, '(a)') '  --help                 show this text and exit'
        end if
        run = .false.
        return
      end if
      if (argument /= '--count' .and. argument /= '--elements' .and. argument /= '--delay') then
        if (speak) write (error_unit, '(3a)') "f08pingpong: unknown option '", trim(argument), &
          "' (try --help)"
        run = .false.
        code = 2
        return
      end if
      call get_command_argument(i + 1, value)
      if (argument == '--delay') then
        read (value, *, iostat=ios) seconds
        if (i + 1 > command_argument_count() .or. ios /= 0 .or. .not. (seconds >= 0 .and. seconds <= 60)) then
          if (speak) write (error_unit, '(a)') 'f08pingpong: option --delay expects seconds from 0 to 60'
          run = .false.
          code = 2
          return
        end if
        delay = seconds
        i = i + 2
        cycle
      end if
      read (value, *, iostat=ios) number
      if (i + 1 > command_argument_count() .or. ios /= 0 .or. number < 1) then
        if (speak) write (error_unit, '(3a)') 'f08pingpong: option ', trim(argument), &
          ' expects a positive integer'
        run = .false.
        code = 2
        return
      end if
      if (argument == '--count') then
        round_trips = number
      else
        elements = number
      end if
      i = i + 2
    end do
  end subroutine parse_options

end program f08pingpong
